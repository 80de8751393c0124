/// A field whose elements carry weights (`Accept`, `Accept-Encoding`, `Accept-Language`:
/// RFC 9110 §12.4.2), walked in place. Browsers send all three with every page, so reading
/// them allocates nothing.
package enum WeightedList {
    /// Calls `visit` with each of the first `limit` elements' value (before any `;`, without
    /// spaces) and weight in thousandths (`q=0.5` is 500; 1000 without a `q`), until it returns
    /// true. An element whose weight is not a valid one (`q=2`, `q=x`) is skipped.
    package static func forEach(_ field: String, limit: Int = 64, _ visit: (UnsafeBufferPointer<UInt8>, Int) -> Bool) {
        var seen = 0
        _ = FieldList.contains(field) { element in
            seen += 1
            guard seen <= limit else { return true }
            let end = element.firstIndex(of: UInt8(ascii: ";")) ?? element.count
            let value = trimmed(element, 0, end)
            var weight = 1000
            var cursor = end
            while cursor < element.count {
                let next = element[(cursor + 1)...].firstIndex(of: UInt8(ascii: ";")) ?? element.count
                let parameter = trimmed(element, cursor + 1, next)
                if parameter.count >= 2, parameter[0] | 0x20 == UInt8(ascii: "q"), parameter[1] == UInt8(ascii: "=") {
                    guard let parsed = Self.weight(UnsafeBufferPointer(rebasing: parameter[2...])) else { return false }
                    weight = parsed
                }
                cursor = next
            }
            guard !value.isEmpty else { return false }
            return visit(value, weight)
        }
    }

    /// A `qvalue` in thousandths: `0`, `0.5`, `1.000`; `nil` for anything else.
    static func weight(_ text: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let first = text.first, first == UInt8(ascii: "0") || first == UInt8(ascii: "1") else { return nil }
        var thousandths = Int(first - UInt8(ascii: "0")) * 1000
        guard text.count > 1 else { return thousandths }
        guard text[1] == UInt8(ascii: "."), text.count <= 5 else { return nil }
        var scale = 100
        for digit in text[2...] {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digit) else { return nil }
            thousandths += Int(digit - UInt8(ascii: "0")) * scale
            scale /= 10
        }
        return thousandths <= 1000 ? thousandths : nil
    }

    private static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> UnsafeBufferPointer<UInt8> {
        var first = start, last = end
        while first < last, bytes[first] == UInt8(ascii: " ") || bytes[first] == UInt8(ascii: "\t") { first += 1 }
        while first < last, bytes[last - 1] == UInt8(ascii: " ") || bytes[last - 1] == UInt8(ascii: "\t") { last -= 1 }
        return UnsafeBufferPointer(rebasing: bytes[first..<last])
    }
}
