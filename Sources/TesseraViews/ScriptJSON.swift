import Foundation

/// A value encoded as JSON that is safe inside `<script>`: besides JSON's own escaping, `<`, `>`,
/// `&` and the line separators U+2028/U+2029 are written as `\u` escapes, so the text can never
/// close the script element or open a comment. It is what the `json` filter produces, and the
/// only value a template may interpolate inside `<script>`.
public struct ScriptJSON: Sendable, HTMLOutputConvertible {
    /// The JSON text, already safe inside `<script>`.
    public let encoded: String

    /// Encodes `value` with sorted keys; a value that cannot be encoded becomes `null`.
    public init(_ value: some Encodable) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(value)) ?? Data("null".utf8)
        var safe = ""
        for scalar in String(decoding: data, as: UTF8.self).unicodeScalars {
            switch scalar {
            case "<": safe += "\\u003c"
            case ">": safe += "\\u003e"
            case "&": safe += "\\u0026"
            case "\u{2028}": safe += "\\u2028"
            case "\u{2029}": safe += "\\u2029"
            default: safe.unicodeScalars.append(scalar)
            }
        }
        encoded = safe
    }

    /// Writes the JSON as it is: it needs no more escaping.
    public func write(to output: inout HTMLOutput, context: HTMLContext) {
        output.appendEscaped(encoded)
    }
}
