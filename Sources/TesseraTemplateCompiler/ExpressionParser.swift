/// Parses what sits inside `{{ … }}` and in tag arguments.
///
/// The grammar is deliberately small: `atom ("|" filter (":" atom ("," atom)*)?)*`, where an atom
/// is a path `name(.name)*`, a string literal, an integer, or a route link
/// `route Type.name ("(" atom ("," atom)* ")")?`, or a catalog message
/// `t "key" (name ":" atom ("," name ":" atom)*)?`. Anything else is an error
/// here, at build time, which is how "no Swift code in templates" is enforced.
struct ExpressionParser {
    enum Piece: Equatable {
        case identifier(String)
        case string(String)
        case integer(Int)
        case symbol(Character)
    }

    let path: String
    let location: SourceLocation
    private(set) var pieces: [Piece] = []
    private var position = 0

    init(_ text: String, path: String, location: SourceLocation) throws(TemplateError) {
        self.path = path
        self.location = location
        var characters = Substring(text)
        while let character = characters.first {
            if character.isWhitespace {
                characters = characters.dropFirst()
            } else if character.isLetter || character == "_" {
                let name = characters.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
                pieces.append(.identifier(String(name)))
                characters = characters.dropFirst(name.count)
            } else if character.isNumber || (character == "-" && characters.dropFirst().first?.isNumber == true) {
                let digits = characters.dropFirst().prefix(while: \.isNumber)
                guard let value = Int(String(character) + digits) else { throw error("number out of range") }
                pieces.append(.integer(value))
                characters = characters.dropFirst(1 + digits.count)
            } else if character == "\"" {
                var literal = ""
                var rest = characters.dropFirst()
                var closed = false
                while let next = rest.first {
                    rest = rest.dropFirst()
                    if next == "\\", let escaped = rest.first {
                        literal.append(escaped == "n" ? "\n" : escaped)
                        rest = rest.dropFirst()
                    } else if next == "\"" {
                        closed = true
                        break
                    } else {
                        literal.append(next)
                    }
                }
                guard closed else { throw error("unterminated string literal") }
                pieces.append(.string(literal))
                characters = rest
            } else if ".|:,=()".contains(character) {
                pieces.append(.symbol(character))
                characters = characters.dropFirst()
            } else {
                throw error("unexpected “\(character)”: templates take property paths, filters and literals only")
            }
        }
    }

    func error(_ message: String) -> TemplateError {
        TemplateError(path: path, location: location, message: message)
    }

    var isAtEnd: Bool { position == pieces.count }

    mutating func peek() -> Piece? {
        position < pieces.count ? pieces[position] : nil
    }

    mutating func next() -> Piece? {
        defer { position += 1 }
        return peek()
    }

    mutating func expect(_ symbol: Character) throws(TemplateError) {
        guard next() == .symbol(symbol) else { throw error("expected “\(symbol)”") }
    }

    mutating func identifier(_ what: String) throws(TemplateError) -> String {
        guard case .identifier(let name)? = next() else { throw error("expected \(what)") }
        return name
    }

    mutating func keyword(_ word: String) -> Bool {
        if peek() == .identifier(word) {
            position += 1
            return true
        }
        return false
    }

    /// `A.B.C`, for type names.
    mutating func qualifiedName(_ what: String) throws(TemplateError) -> String {
        var name = try identifier(what)
        while peek() == .symbol(".") {
            position += 1
            name += "." + (try identifier(what))
        }
        return name
    }

    mutating func atom() throws(TemplateError) -> Expression.Atom {
        switch next() {
        case .identifier("route") where Self.isIdentifier(peek()):
            return try route()
        case .identifier("t") where Self.isString(peek()):
            return try message()
        case .identifier(let first):
            var names = [first]
            while peek() == .symbol(".") {
                position += 1
                names.append(try identifier("a property name after “.”"))
            }
            return .path(names)
        case .string(let value): return .string(value)
        case .integer(let value): return .integer(value)
        case .symbol(let symbol): throw error("unexpected “\(symbol)”")
        case nil: throw error("expected a value")
        }
    }

    /// After `route`: the route's qualified name and its parameters in parentheses, if it has any.
    private mutating func route() throws(TemplateError) -> Expression.Atom {
        let name = try qualifiedName("a route, such as CatalogRoutes.product")
        guard name.contains(".") else {
            throw error("name the route with its type, such as CatalogRoutes.\(name)")
        }
        var arguments: [Expression.Atom] = []
        if peek() == .symbol("(") {
            position += 1
            arguments = try atoms()
            try expect(")")
        }
        return .route(name: name, arguments: arguments)
    }

    /// After `t`: the key, then the message's values by name.
    private mutating func message() throws(TemplateError) -> Expression.Atom {
        guard case .string(let key)? = next() else { throw error("expected a message key in quotes") }
        var arguments: [Expression.MessageArgument] = []
        while case .identifier(let name)? = peek(), position + 1 < pieces.count, pieces[position + 1] == .symbol(":") {
            position += 2
            guard !arguments.contains(where: { $0.name == name }) else { throw error("“\(name)” is given twice") }
            arguments.append(Expression.MessageArgument(name: name, value: try atom()))
            guard peek() == .symbol(",") else { break }
            position += 1
        }
        return .message(key: key, arguments: arguments)
    }

    /// `atom ("," atom)*`: a filter's or a route's arguments.
    private mutating func atoms() throws(TemplateError) -> [Expression.Atom] {
        var atoms = [try atom()]
        while peek() == .symbol(",") {
            position += 1
            atoms.append(try atom())
        }
        return atoms
    }

    private static func isString(_ piece: Piece?) -> Bool {
        if case .string? = piece { true } else { false }
    }

    private static func isIdentifier(_ piece: Piece?) -> Bool {
        if case .identifier? = piece { true } else { false }
    }

    mutating func expression() throws(TemplateError) -> Expression {
        let base = try atom()
        var filters: [Expression.Filter] = []
        while peek() == .symbol("|") {
            position += 1
            let name = try identifier("a filter name after “|”")
            var arguments: [Expression.Atom] = []
            if peek() == .symbol(":") {
                position += 1
                arguments = try atoms()
            }
            filters.append(Expression.Filter(name: name, arguments: arguments))
        }
        return Expression(base: base, filters: filters)
    }

    mutating func end() throws(TemplateError) {
        switch peek() {
        case nil: return
        case .symbol(let symbol)?: throw error("unexpected “\(symbol)”: templates take property paths, filters and literals only")
        default: throw error("unexpected text after the expression")
        }
    }

    /// A whole `{{ … }}`.
    static func parseOutput(_ text: String, path: String, location: SourceLocation) throws(TemplateError) -> Expression {
        var parser = try ExpressionParser(text, path: path, location: location)
        guard !parser.isAtEnd else { throw parser.error("empty {{ }}") }
        let expression = try parser.expression()
        try parser.end()
        return expression
    }
}
