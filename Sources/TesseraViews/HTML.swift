/// Markup that is written as it is, without escaping.
///
/// The only way to make one is to say so, `HTML(unsafe: …)`, so that raw output is always a
/// visible decision in Swift code, never something a template does by accident.
public struct HTML: Sendable, Hashable, HTMLOutputConvertible {
    public let source: String

    public init(unsafe source: String) {
        self.source = source
    }

    public func write(to output: inout HTMLOutput, context: HTMLContext) {
        switch context {
        case .text, .raw: output.write(self)
        // Trusted markup still cannot break out of a quoted attribute.
        case .attribute: output.appendEscaped(source)
        }
    }
}
