/// Supplies the CSRF token for forms being rendered; the framework's session is one.
public protocol CSRFTokenSource: Sendable {
    var csrfToken: String { get }
}

/// Where the template compiler's automatic form field finds its token: the framework binds the
/// request's session here (a task-local, scoped to that request) while its controllers render.
public enum FormProtection {
    @TaskLocal public static var tokenSource: (any CSRFTokenSource)?

    public static let fieldName = "_csrf"
}

extension HTMLOutput {
    /// `<input type="hidden" name="_csrf" value="…">`, when a token source is bound. The compiler
    /// emits this after every `<form method="post">` start tag.
    public mutating func csrfField() {
        guard let source = FormProtection.tokenSource else { return }
        write(static: "<input type=\"hidden\" name=\"_csrf\" value=\"")
        attribute(source.csrfToken)
        write(static: "\">")
    }
}
