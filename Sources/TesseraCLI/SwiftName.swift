import Foundation

/// A name the generators build Swift names from: an identifier that starts with a capital
/// letter (`Shelf`, `Book`), checked before anything is written.
struct SwiftName: Sendable, Equatable {
    /// As given: the type's name (`Book`).
    let type: String

    /// `text` when it is ASCII letters and digits, starting with a capital letter, and not a
    /// name the generated code already uses; otherwise a message that says why.
    init(_ text: String, what: String) throws {
        guard let first = text.unicodeScalars.first, ("A"..."Z").contains(first),
            text.unicodeScalars.allSatisfy({ ("A"..."Z").contains($0) || ("a"..."z").contains($0) || ("0"..."9").contains($0) })
        else {
            throw Refusal(
                "\(what) \(text.debugDescription) is not a Swift type name: ASCII letters and digits, starting with a capital letter, such as Shelf.")
        }
        guard !Self.taken.contains(text) else {
            throw Refusal("\(what) \(text) would hide a type the app uses; choose another name.")
        }
        type = text
    }

    /// Names of the framework and the generated code that a new type must not shadow.
    static let taken: Set<String> = [
        "Tessera", "TesseraViews", "TesseraTesting", "TesseraSQLite", "GRDB", "Foundation", "Testing", "Logging", "ArgumentParser",
        "Home", "Greeting", "Layout", "Page", "Region", "Route", "Application", "String", "Int", "Bool", "Date", "Error", "Self", "Type",
    ]

    /// `book`: a variable's name.
    var variable: String { type.prefix(1).lowercased() + type.dropFirst() }
    /// `Books`: the module's and the routes' plural, English's regular one.
    var pluralType: String {
        if type.hasSuffix("y"), let before = type.dropLast().last, !"aeiou".contains(before) { return type.dropLast() + "ies" }
        if type.hasSuffix("s") || type.hasSuffix("x") || type.hasSuffix("ch") || type.hasSuffix("sh") { return type + "es" }
        return type + "s"
    }
    /// `books`: the plural's variable.
    var pluralVariable: String { pluralType.prefix(1).lowercased() + pluralType.dropFirst() }
    /// `book_list`: `snake_case` for files and tables.
    var snake: String { Self.snake(type) }
    /// `books`: the URL path's segment and the table's name.
    var pluralSnake: String { Self.snake(pluralType) }
    /// `book`, spaced for people: `ReadingList` is `reading list`.
    var words: String { Self.snake(type).replacingOccurrences(of: "_", with: " ") }

    static func snake(_ text: String) -> String {
        var result = ""
        for character in text {
            if character.isUppercase, !result.isEmpty { result += "_" }
            result += character.lowercased()
        }
        return result
    }
}
