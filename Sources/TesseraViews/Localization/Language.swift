import Foundation

/// A language pages are rendered in, such as German: its code, its name in itself for a language
/// switcher, and how it writes numbers and money.
///
/// The conventions come from Foundation's locale data (CLDR, through ICU) once, when the value is
/// made, so that rendering formats a price with a few string appends instead of a formatter: an
/// app makes its languages at start and hands them around.
public struct Language: Sendable, Hashable, CustomStringConvertible {
    /// Everything in one reference: a language is handed to every output and every message of
    /// a page, and one reference is one retain where five fields were five.
    private final class Storage: Sendable {
        let code: String
        let name: String
        let decimalSeparator: String
        let groupingSeparator: String
        let currencyPatterns: [String: CurrencyPattern]

        init(code: String, name: String, decimalSeparator: String, groupingSeparator: String, currencyPatterns: [String: CurrencyPattern]) {
            self.code = code
            self.name = name
            self.decimalSeparator = decimalSeparator
            self.groupingSeparator = groupingSeparator
            self.currencyPatterns = currencyPatterns
        }
    }

    private let storage: Storage

    /// The BCP 47 language code, lower case: `en`, `de`. What `<html lang>`, `hreflang`, the
    /// catalog file names (`de.json`) and the language cookie use.
    public var code: String { storage.code }
    /// The language's name in itself ("Deutsch"), for a switcher: a shopper who cannot read the
    /// current language still finds their own.
    public var name: String { storage.name }
    /// The decimal separator: `.` in English, `,` in German.
    public var decimalSeparator: String { storage.decimalSeparator }
    /// The thousands separator: `,` in English, `.` in German.
    public var groupingSeparator: String { storage.groupingSeparator }

    /// The language with this code, its conventions read from the locale data.
    ///
    /// - Parameters:
    ///   - code: a BCP 47 language code; only its primary subtag is kept, lower-cased.
    ///   - currencies: ISO 4217 codes of the currencies the app shows, whose symbol and place
    ///     (`$12.50`, `12,50 $`) are looked up now rather than at every price.
    public init(_ code: String, currencies: [String] = []) {
        let primary = code.split(separator: "-").first.map { $0.lowercased() } ?? code.lowercased()
        let locale = Locale(identifier: primary)
        var patterns: [String: CurrencyPattern] = [:]
        for currency in currencies { patterns[currency] = CurrencyPattern(currency: currency, locale: locale) }
        storage = Storage(
            code: primary,
            name: locale.localizedString(forLanguageCode: primary).map(Self.capitalizedFirst) ?? primary,
            decimalSeparator: locale.decimalSeparator ?? ".",
            groupingSeparator: locale.groupingSeparator ?? ",",
            currencyPatterns: patterns
        )
    }

    /// English, with US dollars: what views render in when no language was chosen (tests, tools).
    public static let english = Language("en", currencies: ["USD"])

    public var description: String { code }

    public static func == (lhs: Language, rhs: Language) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    /// Which plural form a count takes in this language (CLDR's cardinal rules).
    public func pluralCategory(for count: Int) -> PluralCategory {
        PluralRules.category(for: count, languageCode: code)
    }

    /// A whole number with this language's thousands separator: `12,500` or `12.500`.
    public func format(_ number: Int) -> String {
        // Digits are ASCII: counted and grouped as bytes, not as `Character`s, since every price
        // of every page comes here.
        let digits = String(number.magnitude)
        let count = digits.utf8.count
        guard count > 3 else { return number < 0 ? "-" + digits : digits }
        var grouped = number < 0 ? "-" : ""
        var start = digits.utf8.startIndex
        var run = count % 3 == 0 ? 3 : count % 3
        while start < digits.utf8.endIndex {
            let end = digits.utf8.index(start, offsetBy: run)
            if start > digits.utf8.startIndex { grouped += groupingSeparator }
            grouped += digits[start..<end]
            start = end
            run = 3
        }
        return grouped
    }

    /// An amount in minor units (cents) as this language writes it: `$1,250.00`, `1.250,00 $`.
    public func format(minor: Int, currency: String) -> String {
        let pattern = storage.currencyPatterns[currency] ?? CurrencyPattern(currency: currency, locale: Locale(identifier: code))
        let cents = minor.magnitude % 100
        let amount = format(Int(minor.magnitude / 100)) + decimalSeparator + (cents < 10 ? "0" : "") + String(cents)
        return (minor < 0 ? "-" : "") + pattern.prefix + amount + pattern.suffix
    }

    private static func capitalizedFirst(_ name: String) -> String {
        name.prefix(1).uppercased() + name.dropFirst()
    }
}

/// Where a currency's symbol goes in one language, read once from a formatted sample.
private struct CurrencyPattern: Sendable {
    var prefix: String
    var suffix: String

    init(currency: String, locale: Locale) {
        let sample = Decimal(1234).formatted(.currency(code: currency).locale(locale))
        let digits = sample.unicodeScalars.map { CharacterSet.decimalDigits.contains($0) }
        guard let first = digits.firstIndex(of: true), let last = digits.lastIndex(of: true) else {
            prefix = currency + " "
            suffix = ""
            return
        }
        let scalars = Array(sample.unicodeScalars)
        prefix = String(String.UnicodeScalarView(scalars[..<first]))
        suffix = String(String.UnicodeScalarView(scalars[(last + 1)...]))
    }
}
