/// How many rows `/queries`, `/updates` and `/cached-queries` answer: the parameter as a
/// number from 1 to 500, where a missing, empty, unparsable or smaller value means 1 and a
/// larger one 500, as TechEmpower's rules say.
enum RowCount {
    static func parse(_ text: String?) -> Int {
        guard let text, let number = Int(text) else { return 1 }
        return min(max(number, 1), 500)
    }
}
