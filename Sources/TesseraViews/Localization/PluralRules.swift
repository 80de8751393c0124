/// CLDR's cardinal plural rules for whole numbers, for the languages Tessera knows.
///
/// Counts on pages are whole numbers (items, orders, products), so only the integer part of each
/// rule is here. A language missing from the table is refused by the catalog compiler when one of
/// its messages has plural forms, rather than guessed.
public enum PluralRules {
    /// The categories a language's plural messages must give, or `nil` for a language not in the table.
    public static func categories(forLanguageCode code: String) -> [PluralCategory]? {
        switch family(of: code) {
        case .oneOther?: [.one, .other]
        case .french?: [.one, .many, .other]
        case .slavic?: [.one, .few, .many, .other]
        case .otherOnly?: [.other]
        case nil: nil
        }
    }

    /// The category `count` takes in the language; `other` for a language not in the table.
    public static func category(for count: Int, languageCode code: String) -> PluralCategory {
        let n = count.magnitude
        switch family(of: code) {
        case .oneOther?:
            // one: i = 1 and v = 0
            return n == 1 ? .one : .other
        case .french?:
            // one: i = 0,1; many: i != 0 and i % 1000000 = 0
            if n <= 1 { return .one }
            return n % 1_000_000 == 0 ? .many : .other
        case .slavic?:
            // Polish, Russian, Ukrainian: one, few (2-4 but not 12-14), many (the other integers).
            let mod10 = n % 10, mod100 = n % 100
            if code == "pl" {
                if n == 1 { return .one }
            } else if mod10 == 1 && mod100 != 11 {
                return .one
            }
            if (2...4).contains(mod10) && !(12...14).contains(mod100) { return .few }
            return .many
        case .otherOnly?, nil:
            return .other
        }
    }

    private enum Family { case oneOther, french, slavic, otherOnly }

    private static func family(of code: String) -> Family? {
        switch code {
        case "en", "de", "nl", "sv", "da", "nb", "nn", "no", "fi", "et", "el", "hu", "tr", "bg": .oneOther
        case "fr": .french
        case "pl", "ru", "uk": .slavic
        case "ja", "zh", "ko", "vi", "th", "id": .otherOnly
        default: nil
        }
    }
}
