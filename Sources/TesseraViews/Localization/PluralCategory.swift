/// A plural form, as CLDR names them: a catalog entry that depends on a count has one text per
/// category its language uses (English and German: `one` and `other`; Polish: also `few`, `many`).
public enum PluralCategory: String, Sendable, CaseIterable, Comparable {
    case zero, one, two, few, many, other

    public static func < (lhs: PluralCategory, rhs: PluralCategory) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
