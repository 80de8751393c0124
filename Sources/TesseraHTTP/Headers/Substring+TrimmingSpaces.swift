extension Substring.UTF8View {
    /// Without the spaces and tabs around it, as header values and list entries are written.
    ///
    /// Over the UTF-8, because both are ASCII: the cut never splits a character, and a header
    /// that every request parses is not walked grapheme by grapheme.
    func trimmingSpaces() -> Substring.UTF8View {
        let isSpace = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return self[endIndex...]
        }
        return self[first...last]
    }
}

extension Substring {
    /// Without the spaces and tabs around it, as header values and list entries are written.
    func trimmingSpaces() -> Substring {
        Substring(utf8.trimmingSpaces())
    }
}
