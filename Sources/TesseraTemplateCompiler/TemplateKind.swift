/// What a template writes, chosen by its file's extension, as Askama chooses its escaper.
public enum TemplateKind: Sendable, Equatable {
    /// `.html`: values are escaped for where they land (text, attribute, URL, script). The view
    /// is an `HTMLView`.
    case html
    /// `.txt`: plain text, such as an e-mail's text part. Values are written as they are; there
    /// are no regions, blocks or layouts. The view is a `TextView`, named `…TextView`, so it can
    /// sit beside the `.html` template of the same name.
    case text

    /// The kind of the template at `relativePath`.
    public init(relativePath: String) {
        self = relativePath.hasSuffix(".txt") ? .text : .html
    }
}
