/// A row of TechEmpower's `world` table, encoded as its tests expect:
/// `{"id":3217,"randomNumber":2149}`.
struct World: Encodable, Sendable {
    /// How many rows the table has; ids run from 1 to this.
    static let count: Int32 = 10_000

    var id: Int32
    var randomNumber: Int32

    /// An id, or a new random number: both are drawn from 1...10,000.
    static func randomID() -> Int32 { Int32.random(in: 1...count) }
}

/// How many rows `/queries`, `/updates` and `/cached-queries` answer: the parameter as a
/// number from 1 to 500, where a missing, empty, unparsable or smaller value means 1 and a
/// larger one 500, as TechEmpower's rules say.
enum RowCount {
    static func parse(_ text: String?) -> Int {
        guard let text, let number = Int(text) else { return 1 }
        return min(max(number, 1), 500)
    }
}
