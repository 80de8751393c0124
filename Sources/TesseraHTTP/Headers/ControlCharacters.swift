/// Control characters (Unicode's `Cc`: C0, DEL and C1) in text a visitor sent. They are invisible
/// on a page, but a line break ends a mail header or a log line, and a NUL cuts a C string: a
/// form drops them where a value enters, and an error page that quotes a value drops them too.
public enum ControlCharacters {
    /// `text` without its control characters; with `keepingLineBreaks`, line breaks (as `\n`)
    /// and tabs stay, for a field of several lines.
    public static func removed(from text: String, keepingLineBreaks: Bool = false) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var kept = String.UnicodeScalarView()
        var previous: Unicode.Scalar?
        for scalar in text.unicodeScalars {
            defer { previous = scalar }
            if keepingLineBreaks {
                if scalar == "\n" && previous == "\r" { continue }
                if scalar == "\r" || scalar == "\n" {
                    kept.append("\n")
                    continue
                }
                if scalar == "\t" {
                    kept.append(scalar)
                    continue
                }
            }
            if !isControl(scalar) { kept.append(scalar) }
        }
        return String(kept)
    }

    /// Whether `scalar` is a control character.
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.generalCategory == .control
    }
}
