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
        guard !Self.keywords.contains(variable), !Self.keywords.contains(pluralVariable), !Self.localNames.contains(variable) else {
            throw Refusal("\(what) \(text) would name a variable `\(variable)` that Swift or the generated code already uses; choose another name.")
        }
    }

    /// Swift's keywords, which a generated variable or property must not be.
    static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init", "inout", "internal", "let",
        "open", "operator", "private", "precedencegroup", "protocol", "public", "rethrows", "static", "struct", "subscript", "typealias",
        "var", "break", "case", "catch", "continue", "default", "defer", "do", "else", "fallthrough", "for", "guard", "if", "in", "repeat",
        "return", "throw", "switch", "where", "while", "any", "as", "await", "false", "is", "nil", "self", "super", "throws", "true", "try",
        "some", "async", "consume", "borrowing", "consuming", "copy", "discard", "each", "macro", "package",
    ]

    /// The generated code's own parameters and locals: a resource's variable must not shadow them.
    static let localNames: Set<String> = [
        "store", "database", "db", "row", "form", "state", "page", "list", "context", "routes", "app", "table", "migrator", "output",
        "client", "id", "editing",
    ]

    /// Names of the framework and the generated code that a new type must not shadow.
    static let taken: Set<String> = [
        "Tessera", "TesseraViews", "TesseraTesting", "TesseraSQLite", "GRDB", "Foundation", "Testing", "Logging", "ArgumentParser",
        "Home", "Greeting", "Layout", "Page", "Region", "Route", "Application", "String", "Int", "Bool", "Date", "Error", "Self", "Type",
    ]

    /// `book`: a variable's name.
    var variable: String { type.prefix(1).lowercased() + type.dropFirst() }
    /// `Books`: the module's and the routes' plural, English's regular one.
    var pluralType: String {
        for (singular, plural) in Self.irregularPlurals where type.hasSuffix(singular) {
            return type.dropLast(singular.count) + plural
        }
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

    /// English's common irregular plurals, by ending: `SalesPerson` → `SalesPeople`.
    static let irregularPlurals: [(String, String)] = [
        ("Person", "People"), ("person", "people"), ("Child", "Children"), ("child", "children"), ("Man", "Men"), ("man", "men"),
        ("Mouse", "Mice"), ("mouse", "mice"), ("Foot", "Feet"), ("foot", "feet"), ("Tooth", "Teeth"), ("tooth", "teeth"),
    ]

    /// `ReadingList` → `reading_list`; a run of capitals is one word: `FAQEntry` → `faq_entry`.
    static func snake(_ text: String) -> String {
        let characters = Array(text)
        var result = ""
        for (index, character) in characters.enumerated() {
            if character.isUppercase, index > 0 {
                let previous = characters[index - 1]
                let next = index + 1 < characters.count ? characters[index + 1] : nil
                if previous.isLowercase || previous.isNumber || (previous.isUppercase && next?.isLowercase == true) { result += "_" }
            }
            result += character.lowercased()
        }
        return result
    }
}
