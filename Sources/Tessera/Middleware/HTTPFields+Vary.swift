import HTTPTypes

extension HTTPFields {
    /// Adds `names` to `Vary`, each unless it, or `*`, is listed already: several steps
    /// (compression, language) each add the request headers their answer depends on. It runs
    /// for every page, so the listed names are compared in place, byte by byte, without
    /// splitting the field into new strings.
    mutating func addVary(_ names: String...) {
        guard let index = firstIndex(where: { $0.name == .vary }) else {
            append(HTTPField(name: .vary, value: names.count == 1 ? names[0] : names.joined(separator: ", ")))
            return
        }
        func isListed(_ name: String) -> Bool {
            contains { $0.name == .vary && Self.list($0.value, names: name) }
        }
        guard !isListed("*") else { return }
        var value = self[index].value
        for name in names where !isListed(name) {
            value += ", " + name
        }
        self[index].value = value
    }

    /// Whether the comma-separated `list` holds `name`, compared without case and spaces.
    private static func list(_ list: String, names name: String) -> Bool {
        var list = list, name = name
        return list.withUTF8 { list in
            name.withUTF8 { name in
                var start = 0
                while start < list.count {
                    var end = start
                    while end < list.count, list[end] != UInt8(ascii: ",") { end += 1 }
                    var first = start, last = end
                    while first < last, list[first] == 0x20 || list[first] == 0x09 { first += 1 }
                    while first < last, list[last - 1] == 0x20 || list[last - 1] == 0x09 { last -= 1 }
                    if last - first == name.count, (0..<name.count).allSatisfy({ list[first + $0] | 0x20 == name[$0] | 0x20 }) {
                        return true
                    }
                    start = end + 1
                }
                return false
            }
        }
    }
}
