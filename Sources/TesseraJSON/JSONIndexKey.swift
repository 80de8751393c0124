/// The coding-path key of an array element, as `JSONEncoder` reports it.
struct JSONIndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { "Index \(intValue ?? 0)" }

    init(_ index: Int) { intValue = index }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.intValue = intValue }
}

/// The key `superEncoder()` writes under, as `JSONEncoder` names it.
struct JSONSuperKey: CodingKey {
    var stringValue: String { "super" }
    var intValue: Int? { nil }

    init() {}
    init?(stringValue: String) {
        guard stringValue == "super" else { return nil }
    }
    init?(intValue: Int) { nil }
}
