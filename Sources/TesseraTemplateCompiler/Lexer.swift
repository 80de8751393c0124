/// Splits a template into text and `{{ … }}`, `{% … %}`, `{# … #}` tokens.
struct Lexer {
    enum Kind: Equatable {
        case text(String)
        case output(String)
        case tag(String)
        case comment
        /// Where a `{% raw %}` block starts or ends: gone from the tokens the parser gets.
        case rawBoundary
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
                if scalars[index] == "\n" {
                    line += 1
                    column = 1
                } else {
                    column += 1
                }
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
            case "%": tokens.append(Token(kind: content == Self.raw ? .rawBoundary : .tag(content), location: start))
            default: tokens.append(Token(kind: .comment, location: start))
            }
            textStart = SourceLocation(line: line, column: column)
            if opener == "%", content == Self.raw {
                // Everything up to `{% endraw %}` is text, tags and all: a template that writes
                // templates (`tessera new`'s) says `{{ … }}` without it being one.
                guard let end = Self.endOfRaw(in: scalars, from: index) else {
                    throw TemplateError(path: path, location: start, message: "unclosed {% raw %}: expected {% endraw %}")
                }
                text.append(contentsOf: scalars[index..<end.textEnd])
                advance(end.textEnd - index)
                flushText()
                let endLocation = SourceLocation(line: line, column: column)
                advance(end.tagEnd - index)
                tokens.append(Token(kind: .rawBoundary, location: endLocation))
                textStart = SourceLocation(line: line, column: column)
            }
        }
        flushText()
        // A `{% endraw %}` the lexer did not meet as a raw block's end stays a tag: the parser
        // refuses it as unknown.
        return Self.removingStandaloneLines(tokens).filter { $0.kind != .comment && $0.kind != .rawBoundary }
    }

    static let raw = "raw"
    static let endRaw = "endraw"

    /// Where the raw text that starts at `start` ends, and where the `{% endraw %}` after it ends.
    static func endOfRaw(in scalars: [Unicode.Scalar], from start: Int) -> (textEnd: Int, tagEnd: Int)? {
        var index = start
        while index + 1 < scalars.count {
            if scalars[index] == "{", scalars[index + 1] == "%" {
                var close = index + 2
                while close + 1 < scalars.count, !(scalars[close] == "%" && scalars[close + 1] == "}") { close += 1 }
                guard close + 1 < scalars.count else { return nil }
                var body = String.UnicodeScalarView()
                body.append(contentsOf: scalars[(index + 2)..<close])
                if String(body).trimmingWhitespace() == endRaw { return (index, close + 2) }
            }
            index += 1
        }
        return nil
    }

    /// A `{% … %}` or `{# … #}` alone on its line (only spaces around it) takes the whole line
    /// with it, as Mustache's standalone tags and Jinja's `trim_blocks`/`lstrip_blocks` do, so
    /// declarations and control flow leave no blank lines in the output.
    static func removingStandaloneLines(_ tokens: [Token]) -> [Token] {
        func isBlank(_ text: Substring) -> Bool { text.allSatisfy { $0 == " " || $0 == "\t" || $0 == "\r" } }
        func text(at index: Int) -> String? {
            guard tokens.indices.contains(index), case .text(let text) = tokens[index].kind else { return nil }
            return text
        }
        // Per text token: where its kept part starts and ends, decided on the original tokens.
        var keepFrom: [Int: String.Index] = [:]
        var keepUpTo: [Int: String.Index] = [:]
        for index in tokens.indices {
            switch tokens[index].kind {
            case .tag, .comment, .rawBoundary: break
            default: continue
            }
            // Before: the template starts here, or a text whose last line so far is blank.
            var cutBefore: String.Index?
            if index > 0 {
                guard let before = text(at: index - 1) else { continue }
                let lineStart = before.lastIndex(of: "\n").map { before.index(after: $0) }
                guard lineStart != nil || index - 1 == 0, isBlank(before[(lineStart ?? before.startIndex)...]) else { continue }
                cutBefore = lineStart ?? before.startIndex
            }
            // After: the template ends here, or a text whose first line is blank.
            var cutAfter: String.Index?
            if index + 1 < tokens.count {
                guard let after = text(at: index + 1), let newline = after.firstIndex(of: "\n"),
                    isBlank(after[..<newline])
                else { continue }
                cutAfter = after.index(after: newline)
            }
            if let cutBefore { keepUpTo[index - 1] = cutBefore }
            if let cutAfter { keepFrom[index + 1] = cutAfter }
        }
        var result: [Token] = []
        for (index, token) in tokens.enumerated() {
            guard case .text(let text) = token.kind else {
                result.append(token)
                continue
            }
            let from = keepFrom[index] ?? text.startIndex
            let upTo = keepUpTo[index] ?? text.endIndex
            let kept = from < upTo ? String(text[from..<upTo]) : ""
            guard !kept.isEmpty else { continue }
            var location = token.location
            for character in text[..<from] {
                if character == "\n" {
                    location.line += 1
                    location.column = 1
                } else {
                    location.column += 1
                }
            }
            result.append(Token(kind: .text(kept), location: location))
        }
        return result
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
