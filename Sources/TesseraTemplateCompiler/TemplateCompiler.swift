/// Compiles one template (`Views/<Module>/….html` or `….txt`) into the Swift source of its view type.
public enum TemplateCompiler {
    /// - Parameters:
    ///   - source: the template text.
    ///   - path: the path shown in errors and `#sourceLocation`, such as `Views/Catalog/card.html`.
    ///   - relativePath: the path under the module's views folder, which names the type; its
    ///     extension chooses the escaping, as in Askama: `.txt` is a ``TemplateKind/text`` template.
    public static func compile(source: String, path: String, relativePath: String) throws(TemplateError) -> String {
        let tokens = try Lexer(source: source, path: path).tokens()
        var parser = Parser(tokens: tokens, path: path)
        let nodes = try parser.parse()
        var generator = CodeGenerator(
            path: path,
            typeName: ViewTypeName.forTemplate(atRelativePath: relativePath),
            header: parser.header,
            nodes: nodes,
            kind: TemplateKind(relativePath: relativePath)
        )
        return try generator.generate()
    }
}
