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
        guard let formToken else { return }
        write(static: "<input type=\"hidden\" name=\"_csrf\" value=\"")
        attribute(formToken)
        write(static: "\">")
    }
}
