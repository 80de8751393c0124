import Foundation
public import TesseraViews

/// A module's message catalogs, one JSON file per language (`locales/en.json`, `locales/de.json`),
/// read and checked at build time.
///
/// A file maps each key to a text, or to an object of plural forms named by CLDR category:
///
/// ```json
/// { "cart.title": "Your cart",
///   "cart.items": { "one": "{count} item", "other": "{count} items" } }
/// ```
///
/// Each plural message must give exactly the categories its language uses, or the build fails at
/// the file's line. A key one language lacks is a warning here (Swift code that uses it shows the
/// first language's text there) and an error at the line of every template that uses it.
public struct MessageCatalogs: Sendable {
    /// One language's file.
    public struct Catalog: Sendable {
        public var languageCode: String
        /// The path errors show, such as `Views/Orders/locales/de.json`.
        public var path: String
        public var entries: [String: Entry]
    }

    /// One key of one file.
    public struct Entry: Sendable {
        public var translation: LocalizedMessage.Translation
        public var line: Int

        /// Every placeholder any of its texts uses.
        var placeholders: Set<String> {
            switch translation {
            case .text(let pattern): Set(pattern.placeholders)
            case .plural(let forms): Set(forms.values.flatMap(\.placeholders))
            }
        }

        var isPlural: Bool {
            if case .plural = translation { true } else { false }
        }
    }

    /// Sorted by language code, English first when there is English: the first is the fallback
    /// of the generated messages.
    public let catalogs: [Catalog]

    /// Reads and checks the files.
    /// - Parameter files: each file's path on disk and the path errors show.
    public init(files: [(path: String, displayPath: String)]) throws(TemplateError) {
        var catalogs: [Catalog] = []
        for file in files {
            catalogs.append(try Self.read(path: file.path, displayPath: file.displayPath))
        }
        self.catalogs = catalogs.sorted { ($0.languageCode == "en" ? "" : $0.languageCode) < ($1.languageCode == "en" ? "" : $1.languageCode) }
    }

    /// Every key, sorted.
    public var keys: [String] {
        Set(catalogs.flatMap(\.entries.keys)).sorted()
    }

    /// Checks one use of a message in a template: the key is in every language, and `given`
    /// names exactly the placeholders its texts use (`count` too, for a plural message).
    func checkUse(key: String, given: [String], in template: String, at location: SourceLocation) throws(TemplateError) {
        func fail(_ message: String) -> TemplateError { TemplateError(path: template, location: location, message: message) }
        guard !catalogs.isEmpty else { throw fail("the message “\(key)” needs a catalog: this module has no locales/<language>.json") }
        var needed = Set<String>()
        for catalog in catalogs {
            guard let entry = catalog.entries[key] else {
                throw fail("the message “\(key)” is missing from \(catalog.path)")
            }
            needed.formUnion(entry.placeholders)
            if entry.isPlural { needed.insert("count") }
        }
        if let missing = needed.subtracting(given).sorted().first {
            throw fail("the message “\(key)” needs a value for “\(missing)”: t \"\(key)\" \(missing): …")
        }
        if let extra = Set(given).subtracting(needed).sorted().first {
            throw fail("the message “\(key)” has no placeholder “\(extra)” in any language")
        }
    }

    /// Keys that some language lacks, each at its line in a file that has it: printed as
    /// warnings by the messages command.
    public var missingTranslations: [TemplateError] {
        var found: [TemplateError] = []
        for catalog in catalogs {
            for other in catalogs where other.languageCode != catalog.languageCode {
                for (key, entry) in catalog.entries.sorted(by: { $0.key < $1.key }) where other.entries[key] == nil {
                    found.append(
                        TemplateError(
                            path: catalog.path, location: SourceLocation(line: entry.line, column: 1),
                            message: "“\(key)” is missing from \(other.path)"))
                }
            }
        }
        return found
    }

    private static func read(path: String, displayPath: String) throws(TemplateError) -> Catalog {
        func fail(_ message: String, line: Int = 1) -> TemplateError {
            TemplateError(path: displayPath, location: SourceLocation(line: line, column: 1), message: message)
        }
        let languageCode = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        guard !languageCode.isEmpty, languageCode.allSatisfy({ $0.isASCII && ($0.isLowercase || $0 == "-") }) else {
            throw fail("a catalog is named by its language code in lower case, such as de.json")
        }
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            throw fail("cannot read the catalog as UTF-8")
        }
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw fail("not valid JSON: \((error as NSError).userInfo["NSDebugDescription"] ?? error)")
        }
        guard let table = object as? [String: Any] else { throw fail("a catalog is one JSON object of keys") }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        func line(of key: String) -> Int {
            let quoted = "\"" + key + "\""
            return (lines.firstIndex { $0.contains(quoted) } ?? 0) + 1
        }
        var entries: [String: Entry] = [:]
        for (key, value) in table {
            let at = line(of: key)
            guard key.contains(where: \.isLetter), key.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "_") }) else {
                throw fail("“\(key)”: keys are letters, digits, dots and underscores", line: at)
            }
            if let text = value as? String {
                entries[key] = Entry(translation: .text(MessagePattern(text)), line: at)
            } else if let forms = value as? [String: Any] {
                guard let required = PluralRules.categories(forLanguageCode: languageCode) else {
                    throw fail("“\(key)” has plural forms, but Tessera has no plural rules for “\(languageCode)”", line: at)
                }
                var patterns: [PluralCategory: MessagePattern] = [:]
                for (name, text) in forms {
                    guard let category = PluralCategory(rawValue: name), required.contains(category) else {
                        throw fail(
                            "“\(key)”: \(languageCode) has the plural forms \(required.map(\.rawValue).joined(separator: ", ")), not “\(name)”",
                            line: at)
                    }
                    guard let text = text as? String else { throw fail("“\(key)”.\(name) must be a string", line: at) }
                    patterns[category] = MessagePattern(text)
                }
                if let missing = required.first(where: { patterns[$0] == nil }) {
                    throw fail("“\(key)” lacks the plural form “\(missing.rawValue)” that \(languageCode) uses", line: at)
                }
                entries[key] = Entry(translation: .plural(patterns), line: at)
            } else {
                throw fail("“\(key)” must be a string, or an object of plural forms", line: at)
            }
        }
        return Catalog(languageCode: languageCode, path: displayPath, entries: entries)
    }
}
