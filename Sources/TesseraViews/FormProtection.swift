/// The hidden field that carries a request's CSRF token in every form it renders.
///
/// The token travels with the output (``HTMLOutput/formToken``), handed in explicitly by whoever
/// starts the rendering, so a form rendered on an error page, in a region or in a streamed region
/// carries it exactly as a form on an ordinary page does: no ambient state has to be bound first.
public enum FormProtection {
    /// The form field, and the name the CSRF check reads.
    public static let fieldName = "_csrf"
}

extension HTMLOutput {
    /// `<input type="hidden" name="_csrf" value="…">` when the output has a token. The compiler
    /// emits this after every `<form method="post">` start tag.
    public mutating func csrfField() {
        guard let formToken = formToken() else { return }
        write(static: "<input type=\"hidden\" name=\"_csrf\" value=\"")
        attribute(formToken)
        write(static: "\">")
    }
}

/// Where an output's forms get the request's CSRF token.
///
/// A source, not the token: drawing a new visitor's token makes their answer set a session
/// cookie, so it is asked for only when a form is written. A page that shows no form draws
/// none, and sets no cookie.
public struct FormTokenSource: Sendable {
    private let provide: (@Sendable () -> String?)?

    /// A source that asks `provide` each time a form is written.
    public init(_ provide: @escaping @Sendable () -> String?) {
        self.provide = provide
    }

    private init(nothing: Void) {
        provide = nil
    }

    /// No token: forms are written without the field (a test, a benchmark).
    public static let none = FormTokenSource(nothing: ())

    /// Always `token`.
    public static func fixed(_ token: String?) -> FormTokenSource {
        FormTokenSource { token }
    }

    /// The token, asking for it now.
    public func callAsFunction() -> String? {
        provide?()
    }
}
