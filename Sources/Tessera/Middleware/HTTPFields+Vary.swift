import HTTPTypes

extension HTTPFields {
    /// Adds `names` to `Vary`, each unless it, or `*`, is listed already: several steps
    /// (compression, language) each add the request headers their answer depends on. It runs
    /// for every page, so the listed names are compared byte by byte, without new strings.
    mutating func addVary(_ names: String...) {
        guard contains(.vary) else {
            append(HTTPField(name: .vary, value: names.joined(separator: ", ")))
            return
        }
        let existing = self[values: .vary]
        func isListed(_ name: String) -> Bool {
            existing.contains { value in
                value.utf8.split(separator: UInt8(ascii: ",")).contains { token in
                    let trimmed = token.drop { $0 == 0x20 || $0 == 0x09 }.reversed().drop { $0 == 0x20 || $0 == 0x09 }.reversed()
                    return trimmed.elementsEqual(name.utf8) { ($0 | 0x20) == ($1 | 0x20) }
                }
            }
        }
        guard !isListed("*") else { return }
        let added = names.filter { !isListed($0) }
        guard !added.isEmpty else { return }
        self[.vary] = (existing + added).joined(separator: ", ")
    }
}
