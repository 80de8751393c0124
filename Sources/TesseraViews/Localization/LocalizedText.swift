/// A catalog message with its values, waiting for an output: written in the output's
/// ``HTMLOutput/language``, so a view renders in whatever language its request negotiated.
public struct LocalizedText: Sendable, HTMLOutputConvertible {
    let message: LocalizedMessage
    let count: Int?
    let arguments: [(key: String, value: any HTMLOutputConvertible & Sendable)]

    /// The text as a string in `language`, for Swift code that hands it on (an error's
    /// message).
    public func string(in language: Language) -> String {
        var output = HTMLOutput(capacity: 64, language: language)
        write(to: &output, context: .raw)
        return output.string
    }

    public func write(to output: inout HTMLOutput, context: HTMLContext) {
        let language = output.language
        let entry = message.entry(in: language)
        // Fixed words are copied as they were prepared, like a template's static text.
        if arguments.isEmpty, count == nil, let fixed = context == .raw ? entry.raw : entry.escaped {
            output.write(trusted: fixed)
            return
        }
        for segment in entry.pattern(count: count, language: language).segments {
            switch segment {
            case .literal(let text):
                text.write(to: &output, context: context)
            case .placeholder(let name):
                if let value = arguments.first(where: { $0.key == name })?.value {
                    value.write(to: &output, context: context)
                } else if name == "count", let count {
                    language.format(count).write(to: &output, context: context)
                } else {
                    // The catalog compiler checks every template's arguments; Swift callers
                    // that leave one out see the placeholder, not a crash.
                    "{\(name)}".write(to: &output, context: context)
                }
            }
        }
    }
}
