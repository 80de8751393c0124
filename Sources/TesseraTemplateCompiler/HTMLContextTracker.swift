/// Follows the template's static HTML, character by character, the way a browser's tokenizer
/// would (simplified to what templates contain), so that the compiler knows where each `{{ … }}`
/// lands and can choose its escaping, or refuse it.
struct HTMLContextTracker: Equatable {
    enum State: Equatable {
        case data
        case tagOpen
        case tagName(String)
        case endTag
        case markupDeclaration(String)
        case comment(trailingDashes: Int)
        case beforeAttributeName(tag: String)
        case attributeName(tag: String, name: String)
        case afterAttributeName(tag: String, name: String)
        case beforeAttributeValue(tag: String, name: String)
        case attributeValue(tag: String, name: String, quote: Character, atStart: Bool)
        case unquotedAttributeValue(tag: String, name: String)
        /// Inside `<script>` or `<style>`; `pending` is a partial `</script` seen so far.
        case rawText(tag: String, pending: String)
    }

    /// Where a `{{ … }}` may go, and how it is written.
    enum OutputContext: Equatable {
        case text
        case attribute
        /// At the start of a URL attribute's value, where a scheme could be injected.
        case urlAttribute
        case script
    }

    static let urlAttributes: Set<String> = [
        "href", "src", "action", "formaction", "poster", "cite", "background", "longdesc", "usemap",
        "manifest", "ping", "icon", "data", "codebase", "xlink:href", "srcset", "lowsrc", "dynsrc",
    ]

    private(set) var state = State.data

    /// Follows `text`.
    mutating func consume(_ text: String) {
        for character in text { step(character) }
    }

    /// Whether a `{{ … }}` may go here, and how it is written.
    enum Placement: Equatable {
        case allowed(OutputContext)
        case refused(String)
    }

    /// The context for a `{{ … }}` here, or why it is refused.
    func outputContext() -> Placement {
        switch state {
        case .data:
            return .allowed(.text)
        case .attributeValue(_, let name, _, let atStart):
            if name.hasPrefix("on") {
                return .refused("no interpolation in event-handler attributes (\(name)): their value is JavaScript")
            }
            if name == "style" {
                return .refused("no interpolation in style attributes: their value is CSS")
            }
            if Self.urlAttributes.contains(name) { return .allowed(atStart ? .urlAttribute : .attribute) }
            return .allowed(.attribute)
        case .beforeAttributeValue, .unquotedAttributeValue:
            return .refused("attribute values with interpolation must be quoted: name=\"{{ … }}\"")
        case .rawText(let tag, _) where tag == "script":
            return .allowed(.script)
        case .rawText(let tag, _):
            return .refused("no interpolation inside <\(tag)>")
        case .comment:
            return .refused("no interpolation inside HTML comments")
        default:
            return .refused("interpolation is only allowed in text or inside a quoted attribute value, not in the middle of a tag")
        }
    }

    /// After a value was written into an attribute, it is no longer at the value's start.
    mutating func didOutput() {
        if case .attributeValue(let tag, let name, let quote, true) = state {
            state = .attributeValue(tag: tag, name: name, quote: quote, atStart: false)
        }
    }

    /// Whether the two trackers are in the same place, ignoring whether a URL is at its start.
    func isCompatible(with other: HTMLContextTracker) -> Bool {
        switch (state, other.state) {
        case let (.attributeValue(t1, n1, q1, _), .attributeValue(t2, n2, q2, _)): t1 == t2 && n1 == n2 && q1 == q2
        default: state == other.state
        }
    }

    /// Joins branch ends: a URL is still at its start only if it is in every branch.
    mutating func merge(_ other: HTMLContextTracker) {
        if case .attributeValue(let tag, let name, let quote, let a) = state, case .attributeValue(_, _, _, let b) = other.state {
            state = .attributeValue(tag: tag, name: name, quote: quote, atStart: a && b)
        }
    }

    private mutating func step(_ character: Character) {
        switch state {
        case .data:
            if character == "<" { state = .tagOpen }
        case .tagOpen:
            if character.isLetter {
                state = .tagName(String(character).lowercased())
            } else if character == "/" {
                state = .endTag
            } else if character == "!" {
                state = .markupDeclaration("")
            } else {
                state = .data
            }
        case .tagName(let name):
            if character.isWhitespace {
                state = .beforeAttributeName(tag: name)
            } else if character == ">" {
                enterContent(of: name)
            } else if character == "/" {
                state = .beforeAttributeName(tag: name)
            } else {
                state = .tagName(name + String(character).lowercased())
            }
        case .endTag:
            if character == ">" { state = .data }
        case .markupDeclaration(let seen):
            let next = seen + String(character)
            if next == "--" {
                state = .comment(trailingDashes: 0)
            } else if character == ">" {
                state = .data
            } else if next.count >= 2 {
                state = .markupDeclaration("xx")
            }  // a doctype or similar: wait for `>`
            else {
                state = .markupDeclaration(next)
            }
        case .comment(let dashes):
            if character == "-" {
                state = .comment(trailingDashes: dashes + 1)
            } else if character == ">", dashes >= 2 {
                state = .data
            } else {
                state = .comment(trailingDashes: 0)
            }
        case .beforeAttributeName(let tag):
            if character.isWhitespace || character == "/" { break }
            if character == ">" { enterContent(of: tag) } else { state = .attributeName(tag: tag, name: String(character).lowercased()) }
        case .attributeName(let tag, let name):
            if character.isWhitespace {
                state = .afterAttributeName(tag: tag, name: name)
            } else if character == "=" {
                state = .beforeAttributeValue(tag: tag, name: name)
            } else if character == ">" {
                enterContent(of: tag)
            } else if character == "/" {
                state = .beforeAttributeName(tag: tag)
            } else {
                state = .attributeName(tag: tag, name: name + String(character).lowercased())
            }
        case .afterAttributeName(let tag, let name):
            if character.isWhitespace { break }
            if character == "=" {
                state = .beforeAttributeValue(tag: tag, name: name)
            } else if character == ">" {
                enterContent(of: tag)
            } else if character == "/" {
                state = .beforeAttributeName(tag: tag)
            } else {
                state = .attributeName(tag: tag, name: String(character).lowercased())
            }
        case .beforeAttributeValue(let tag, let name):
            if character.isWhitespace { break }
            if character == "\"" || character == "'" {
                state = .attributeValue(tag: tag, name: name, quote: character, atStart: true)
            } else if character == ">" {
                enterContent(of: tag)
            } else {
                state = .unquotedAttributeValue(tag: tag, name: name)
            }
        case .attributeValue(let tag, let name, let quote, _):
            state = character == quote ? .beforeAttributeName(tag: tag) : .attributeValue(tag: tag, name: name, quote: quote, atStart: false)
        case .unquotedAttributeValue(let tag, _):
            if character.isWhitespace { state = .beforeAttributeName(tag: tag) } else if character == ">" { enterContent(of: tag) }
        case .rawText(let tag, let pending):
            let closing = "</" + tag
            if pending.count == closing.count {
                state =
                    character.isWhitespace || character == ">" || character == "/"
                    ? (character == ">" ? .data : .endTag) : .rawText(tag: tag, pending: "")
            } else {
                let candidate = pending + String(character).lowercased()
                if closing.hasPrefix(candidate) {
                    state = .rawText(tag: tag, pending: candidate)
                } else {
                    state = .rawText(tag: tag, pending: character == "<" ? "<" : "")
                }
            }
        }
    }

    private mutating func enterContent(of tag: String) {
        state = tag == "script" || tag == "style" ? .rawText(tag: tag, pending: "") : .data
    }
}
