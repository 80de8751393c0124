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
                field.name == .vary
                    && FieldList.contains(field.value) { listed in
                        (listed.count == 1 && listed[0] == UInt8(ascii: "*")) || FieldList.element(listed, equalsIgnoringCase: name)
                    }
            }
        }
        var listedCount = 0, count = 0
        _ = FieldList.contains(names) { name in
            count += 1
            if isListed(name) { listedCount += 1 }
            return false
        }
        guard listedCount < count else { return }
        // One new string, the field's value grown in place.
        var value = self[index].value
        value.reserveCapacity(value.utf8.count + 2 + names.utf8.count)
        if listedCount == 0 {
            value += ", "
            value += names
        } else {
            _ = FieldList.contains(names) { name in
                if !isListed(name) {
                    value += ", "
                    value += String(decoding: name, as: UTF8.self)
                }
                return false
            }
        }
        self[index].value = value
    }
}
