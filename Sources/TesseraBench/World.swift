/// A row of TechEmpower's `world` table, encoded as its tests expect:
/// `{"id":3217,"randomNumber":2149}`.
struct World: Encodable, Sendable {
    /// How many rows the table has; ids run from 1 to this.
    static let count: Int32 = 10_000

    var id: Int32
    var randomNumber: Int32
}
