/// Compiles one template (`Views/<Module>/….html` or `….txt`) into the Swift source of its view type.
public enum TemplateCompiler {
    /// - Parameters:
    ///   - source: the template text.
    ///   - path: the path shown in errors and `#sourceLocation`, such as `Views/Catalog/card.html`.
    ///   - relativePath: the path under the module's views folder, which names the type; its
    ///     extension chooses the escaping, as in Askama: `.txt` is a ``TemplateKind/text`` template.
    ///   - catalogs: the module's message catalogs, which its `t "key"` uses are checked against.
    public static func compile(source: String, path: String, relativePath: String, catalogs: MessageCatalogs? = nil) throws(TemplateError) -> String {
        let tokens = try Lexer(source: source, path: path).tokens()
        var parser = Parser(tokens: tokens, path: path)
        let nodes = try parser.parse()
        var generator = CodeGenerator(
            path: path,
            typeName: ViewTypeName.forTemplate(atRelativePath: relativePath),
            header: parser.header,
            nodes: nodes,
            kind: TemplateKind(relativePath: relativePath),
            catalogs: catalogs
        )
        return try generator.generate()
    }

    /// What `make dev` compares before it rebuilds: the code's shape and the static runs of a
    /// template. Two versions with the same shape differ in their markup alone, and a debug build
    /// of the first shows the second's runs without a rebuild.
    public static func markup(source: String, path: String, relativePath: String) throws(TemplateError) -> TemplateMarkup {
        let tokens = try Lexer(source: source, path: path).tokens()
        var parser = Parser(tokens: tokens, path: path)
        let nodes = try parser.parse()
        var generator = CodeGenerator(
            path: path, typeName: ViewTypeName.forTemplate(atRelativePath: relativePath), header: parser.header, nodes: nodes,
            kind: TemplateKind(relativePath: relativePath))
        generator.writesShapeOnly = true
        let shape = try generator.generate()
        return TemplateMarkup(shape: shape, runs: generator.markupRuns)
    }
}

/// A template's code shape and static runs (``TemplateCompiler/markup(source:path:relativePath:)``).
public struct TemplateMarkup: Equatable, Sendable {
    /// The generated code with each static run as its number and no line directives.
    public let shape: String
    /// The static runs, in the order the view writes them.
    public let runs: [String]
}
