/// Builds the node tree from tokens, checking that every block is closed by its own end tag.
struct Parser {
    let path: String
    var header = TemplateHeader()
    private var tokens: [Lexer.Token]
    private var position = 0

    init(tokens: [Lexer.Token], path: String) {
        self.tokens = tokens
        self.path = path
    }

    private func error(_ message: String, at location: SourceLocation) -> TemplateError {
        TemplateError(path: path, location: location, message: message)
    }

    /// Parses the whole template.
    mutating func parse() throws(TemplateError) -> [Node] {
        let (nodes, terminator) = try parseNodes(until: [], opening: nil)
        if let terminator {
            throw error("“{% \(terminator.word) %}” without an opening tag", at: terminator.location)
        }
        guard header.modelType != nil else {
            throw error("a template must declare its model first: {% model name: Type %}", at: SourceLocation(line: 1, column: 1))
        }
        return nodes
    }

    private struct Terminator {
        var word: String
        var rest: String
        var location: SourceLocation
    }

    /// Parses nodes until one of `terminators` (an end tag or `else`), which is returned.
    private mutating func parseNodes(
        until terminators: Set<String>, opening: (tag: String, location: SourceLocation)?
    ) throws(TemplateError) -> ([Node], Terminator?) {
        var nodes: [Node] = []
        while position < tokens.count {
            let token = tokens[position]
            position += 1
            switch token.kind {
            case .comment, .rawBoundary:
                break
            case .text(let text):
                nodes.append(.text(text, token.location))
            case .output(let text):
                nodes.append(.output(try ExpressionParser.parseOutput(text, path: path, location: token.location), token.location))
            case .tag(let text):
                let word = String(text.prefix { !$0.isWhitespace })
                let rest = String(text.dropFirst(word.count)).trimmingWhitespace()
                if ["endif", "endfor", "endblock", "else"].contains(word) {
                    guard terminators.contains(word) else {
                        let expected = terminators.filter { $0 != "else" }.sorted().first.map { " (expected {% \($0) %})" } ?? ""
                        throw error("unexpected {% \(word) %}\(expected)", at: token.location)
                    }
                    return (nodes, Terminator(word: word, rest: rest, location: token.location))
                }
                if let node = try parseTag(word: word, rest: rest, location: token.location) {
                    nodes.append(node)
                }
            }
        }
        if let opening, let expected = terminators.filter({ $0 != "else" }).sorted().first {
            throw error("unclosed {% \(opening.tag) %}: expected {% \(expected) %} before the end of the template", at: opening.location)
        }
        return (nodes, nil)
    }

    private mutating func parseTag(word: String, rest: String, location: SourceLocation) throws(TemplateError) -> Node? {
        // These two read their own syntax.
        switch word {
        case "model":
            guard header.modelType == nil else { throw error("the model is already declared", at: location) }
            try parseModel(rest, location: location)
            return nil
        case "if":
            return try parseConditional(firstCondition: rest, location: location)
        default:
            break
        }
        var arguments = try ExpressionParser(rest, path: path, location: location)
        switch word {
        case "public":
            try arguments.end()
            header.isPublic = true
            return nil
        case "import":
            header.imports.append(try arguments.qualifiedName("a module name"))
            try arguments.end()
            return nil
        case "extends":
            guard header.layout == nil else { throw error("a template extends one layout", at: location) }
            let type = try arguments.qualifiedName("a layout view type")
            try arguments.expect("(")
            let model = try arguments.expression()
            try arguments.expect(")")
            try arguments.end()
            header.layout = (type, model, location)
            return nil
        case "for":
            let variable = try arguments.identifier("a loop variable")
            guard arguments.keyword("in") else { throw error("expected “in”: {% for item in items %}", at: location) }
            let sequence = try arguments.expression()
            try arguments.end()
            let (body, _) = try parseNodes(until: ["endfor"], opening: ("for", location))
            return .loop(variable: variable, sequence: sequence, body: body, location)
        case "render":
            let type = try arguments.qualifiedName("a view type")
            try arguments.expect("(")
            let model = try arguments.expression()
            try arguments.expect(")")
            try arguments.end()
            return .render(view: type, model: model, location)
        case "block":
            let name = try arguments.identifier("a block name")
            try arguments.end()
            let (body, _) = try parseNodes(until: ["endblock"], opening: ("block", location))
            return .block(name: name, body: body, location)
        case "region":
            let name: String
            switch arguments.next() {
            case .string(let value)?, .identifier(let value)?: name = value
            default: throw error("expected a region name: {% region \"details\" %}", at: location)
            }
            guard RegionSlotName.isValid(name) else {
                throw error("a region name is lowercase letters, digits and “-”, starting with a letter: “\(name)” is not", at: location)
            }
            let isOptional = arguments.keyword("optional")
            guard arguments.isAtEnd else { throw error("expected “optional” or the end of the tag after the region name", at: location) }
            return .region(name: name, isOptional: isOptional, location)
        default:
            throw error("unknown tag “\(word)”", at: location)
        }
    }

    /// `{% model name: Type %}` or `{% model Type %}`; the type is Swift type syntax
    /// (`[Product]`, `any OrderRow`, `Page<Product>`), checked for characters only: the Swift
    /// compiler checks the rest.
    private mutating func parseModel(_ text: String, location: SourceLocation) throws(TemplateError) {
        var name = "model"
        var type = text
        if let colon = text.firstIndex(of: ":"), !text[..<colon].contains("["),
            text[..<colon].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == " " })
        {
            name = String(text[..<colon]).trimmingWhitespace()
            type = String(text[text.index(after: colon)...]).trimmingWhitespace()
        }
        let allowed = Set("_.[]<>,?!: ")
        guard let first = name.first, first.isLetter || first == "_", name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else {
            throw error("expected {% model name: Type %}", at: location)
        }
        guard !type.isEmpty, type.allSatisfy({ $0.isLetter || $0.isNumber || allowed.contains($0) }) else {
            throw error("“\(type)” is not a type: expected {% model name: Type %}", at: location)
        }
        header.modelName = name
        header.modelType = type
        header.modelLocation = location
    }

    private mutating func parseConditional(firstCondition: String, location: SourceLocation) throws(TemplateError) -> Node {
        var branches: [(Condition, [Node], SourceLocation)] = []
        var conditionText = firstCondition
        var conditionLocation = location
        while true {
            let condition = try parseCondition(conditionText, location: conditionLocation)
            let (body, terminator) = try parseNodes(until: ["else", "endif"], opening: ("if", location))
            branches.append((condition, body, conditionLocation))
            guard let terminator, terminator.word == "else" else {
                return .conditional(branches: branches, otherwise: nil, location)
            }
            if terminator.rest.hasPrefix("if ") {
                conditionText = String(terminator.rest.dropFirst(3))
                conditionLocation = terminator.location
                continue
            }
            guard terminator.rest.isEmpty else { throw error("expected {% else %} or {% else if … %}", at: terminator.location) }
            let (otherwise, end) = try parseNodes(until: ["endif"], opening: ("if", location))
            guard end?.word == "endif" else { throw error("expected {% endif %}", at: terminator.location) }
            return .conditional(branches: branches, otherwise: otherwise, location)
        }
    }

    private func parseCondition(_ text: String, location: SourceLocation) throws(TemplateError) -> Condition {
        var parser = try ExpressionParser(text, path: path, location: location)
        if parser.keyword("let") {
            let name = try parser.identifier("a name after “let”")
            try parser.expect("=")
            let expression = try parser.expression()
            try parser.end()
            return .unwrap(name: name, expression)
        }
        if parser.keyword("not") {
            let expression = try parser.expression()
            try parser.end()
            return .not(expression)
        }
        guard !parser.isAtEnd else { throw error("{% if %} needs a condition", at: location) }
        let expression = try parser.expression()
        try parser.end()
        return .bool(expression)
    }
}
