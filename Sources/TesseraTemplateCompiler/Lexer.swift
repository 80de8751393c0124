/// Splits a template into text and `{{ … }}`, `{% … %}`, `{# … #}` tokens.
struct Lexer {
    enum Kind: Equatable {
        case text(String)
        case output(String)
        case tag(String)
    }

    struct Token: Equatable {
        var kind: Kind
        var location: SourceLocation
    }

    let source: String
    let path: String

    func tokens() throws(TemplateError) -> [Token] {
        var tokens: [Token] = []
        let scalars = Array(source.unicodeScalars)
        var index = 0
        var line = 1
        var column = 1
        var textStart = SourceLocation(line: 1, column: 1)
        var text = String.UnicodeScalarView()

        func advance(_ count: Int) {
            for _ in 0..<count {
                if scalars[index] == "\n" { line += 1; column = 1 } else { column += 1 }
                index += 1
            }
        }
        func flushText() {
            if !text.isEmpty { tokens.append(Token(kind: .text(String(text)), location: textStart)) }
            text = String.UnicodeScalarView()
        }

        while index < scalars.count {
            let opener = index + 1 < scalars.count && scalars[index] == "{" ? scalars[index + 1] : nil
            guard let opener, opener == "{" || opener == "%" || opener == "#" else {
                if text.isEmpty { textStart = SourceLocation(line: line, column: column) }
                text.append(scalars[index])
                advance(1)
                continue
            }
            flushText()
            let start = SourceLocation(line: line, column: column)
            let closer: Unicode.Scalar = opener == "{" ? "}" : opener
            advance(2)
            var body = String.UnicodeScalarView()
            var closed = false
            while index < scalars.count {
                if scalars[index] == closer, index + 1 < scalars.count, scalars[index + 1] == "}" {
                    advance(2)
                    closed = true
                    break
                }
                body.append(scalars[index])
                advance(1)
            }
            guard closed else {
                let what = opener == "{" ? "{{" : opener == "%" ? "{%" : "{#"
                throw TemplateError(path: path, location: start, message: "unclosed \(what): expected \(String(closer))}")
            }
            let content = String(body).trimmingWhitespace()
            switch opener {
            case "{": tokens.append(Token(kind: .output(content), location: start))
            case "%": tokens.append(Token(kind: .tag(content), location: start))
            default: break  // comment
            }
            textStart = SourceLocation(line: line, column: column)
        }
        flushText()
        return tokens
    }
}

extension String {
    func trimmingWhitespace() -> String {
        var scalars = Substring(self)
        while let first = scalars.first, first.isWhitespace { scalars = scalars.dropFirst() }
        while let last = scalars.last, last.isWhitespace { scalars = scalars.dropLast() }
        return String(scalars)
    }
}
