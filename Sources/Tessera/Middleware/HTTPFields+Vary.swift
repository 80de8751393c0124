import HTTPTypes

extension HTTPFields {
    /// Adds `name` to `Vary` unless it, or `*`, is listed already: several steps (compression,
    /// language) each add the request header their answer depends on.
    mutating func addVary(_ name: String) {
        guard contains(.vary) else {
            append(HTTPField(name: .vary, value: name))
            return
        }
        let existing = self[values: .vary]
        let listed = existing.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: " \t").lowercased() }
        guard !listed.contains(name.lowercased()), !listed.contains("*") else { return }
        self[.vary] = (existing + [name]).joined(separator: ", ")
    }
}
