import HTTPTypes
import TesseraHTTP

extension HTTPFields {
    /// Adds each of `names` (a comma-separated list, `"Accept-Language, Cookie"`) to `Vary`,
    /// unless it, or `*`, is listed already: several steps (compression, language) each add the
    /// request headers their answer depends on. It runs for every page, so the names are
    /// compared in place, without splitting either list into strings.
    mutating func addVary(_ names: String) {
        guard let index = firstIndex(where: { $0.name == .vary }) else {
            append(HTTPField(name: .vary, value: names))
            return
        }
        func isListed(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
            contains { field in
                field.name == .vary && FieldList.contains(field.value) { listed in
                    (listed.count == 1 && listed[0] == UInt8(ascii: "*")) || FieldList.element(listed, equalsIgnoringCase: name)
                }
            }
        }
        var added = ""
        _ = FieldList.contains(names) { name in
            if !isListed(name) { added += ", " + String(decoding: name, as: UTF8.self) }
            return false
        }
        if !added.isEmpty { self[index].value += added }
    }
}
