import Foundation

/// One field of a generated resource, `title:string`: its name, and a type that decides the
/// Swift type, the column, the form's reading and the input.
struct ResourceField: Equatable {
    /// What a field may hold.
    enum Kind: String, CaseIterable {
        /// One line, up to 200 characters, required.
        case string
        /// Several lines, up to 10,000 characters, required.
        case text
        /// A whole number from 0 to 1,000,000,000.
        case int
        /// Yes or no: a checkbox.
        case bool

        var swiftType: String {
            switch self {
            case .string, .text: "String"
            case .int: "Int"
            case .bool: "Bool"
            }
        }

        var columnType: String {
            switch self {
            case .string, .text: ".text"
            case .int: ".integer"
            case .bool: ".boolean"
            }
        }
    }

    let name: String
    let kind: Kind

    /// `name:type`, or a message that says what is wrong; nothing has been written yet.
    init(_ argument: String) throws {
        let parts = argument.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 2 else { throw Refusal("\(argument.debugDescription) is not name:type, such as title:string.") }
        let (name, type) = (parts[0], parts[1])
        guard let first = name.unicodeScalars.first, ("a"..."z").contains(first),
            name.unicodeScalars.allSatisfy({ ("A"..."Z").contains($0) || ("a"..."z").contains($0) || ("0"..."9").contains($0) })
        else {
            throw Refusal(
                "The field name \(name.debugDescription) is not a Swift property name: ASCII letters and digits, starting with a small letter.")
        }
        guard !Self.reserved.contains(name), !SwiftName.keywords.contains(name), !name.hasSuffix("Error") else {
            throw Refusal("The field name \(name) is taken by Swift or the generated code; choose another.")
        }
        guard let kind = Kind(rawValue: type) else {
            throw Refusal(
                "The field type \(type.debugDescription) of \(name) is not one of \(Kind.allCases.map(\.rawValue).joined(separator: ", ")).")
        }
        self.name = name
        self.kind = kind
    }

    /// Names the generated models already use.
    static let reserved: Set<String> = [
        "id", "heading", "action", "button", "back", "errors", "values", "form", "state",
    ]

    /// `Page count` for `pageCount`: the label people read.
    var label: String {
        let words = SwiftName.snake(name).replacingOccurrences(of: "_", with: " ")
        return words.prefix(1).uppercased() + words.dropFirst()
    }

    /// How the form model reads it.
    var reading: String {
        switch kind {
        case .string: #"form.text("\#(name)", maxLength: 200, label: "\#(label)")"#
        case .text: #"form.text("\#(name)", maxLength: 10_000, label: "\#(label)", multiline: true)"#
        case .int: #"form.integer("\#(name)", in: 0...1_000_000_000, label: "\#(label)")"#
        case .bool: #"form.data["\#(name)"] == "on""#
        }
    }

    /// A value the generated tests send, URL-encoded, and the text it shows as.
    var sample: (form: String, shown: String) {
        switch kind {
        case .string: ("Sample+\(name)", "Sample \(name)")
        case .text: ("First+line%0D%0ASecond+line", "First line")
        case .int: ("42", "42")
        case .bool: ("on", "Yes")
        }
    }
}
