/// A rendered fragment can be written into another template, `{{ page.body }}`: it is already
/// escaped HTML, and its region slots move along with it.
extension HTMLOutput: HTMLOutputConvertible {
    /// A rendered fragment goes in as it is, its region slots moved along.
    public func write(to output: inout HTMLOutput, context: HTMLContext) {
        switch context {
        case .text, .raw: output.write(self)
        case .attribute: output.appendEscaped(string)
        }
    }
}
