/// Markup that is written as it is, without escaping.
///
/// The only way to make one is to say so, `HTML(unsafe: …)`, so that raw output is always a
/// visible decision in Swift code, never something a template does by accident.
public struct HTML: Sendable, Hashable, HTMLOutputConvertible {
    /// The markup, written as it is.
    public let source: String

    /// Markup that is trusted as it is: the name says what the caller vouches for.
    public init(unsafe source: String) {
        self.source = source
    }

    /// Writes the markup unescaped, whatever the context.
    public func write(to output: inout HTMLOutput, context: HTMLContext) {
        switch context {
        case .text, .raw: output.write(self)
        // Trusted markup still cannot break out of a quoted attribute.
        case .attribute: output.appendEscaped(source)
        }
    }
}
