import TesseraJSON

/// A value encoded as JSON that is safe inside `<script>`: besides JSON's own escaping, `<`, `>`,
/// `&` and the line separators U+2028/U+2029 are written as `\u` escapes, so the text can never
/// close the script element or open a comment. It is what the `json` filter produces, and the
/// only value a template may interpolate inside `<script>`.
public struct ScriptJSON: Sendable, HTMLOutputConvertible {
    /// The JSON text, already safe inside `<script>`.
    public let encoded: String

    /// Encodes `value` with sorted keys; a value that cannot be encoded becomes `null`.
    public init(_ value: some Encodable) {
        encoded = (try? Self.writer.string(value)) ?? "null"
    }

    private static let writer = JSONWriter(sortsKeys: true, isScriptSafe: true)

    /// Writes the JSON as it is: it needs no more escaping.
    public func write(to output: inout HTMLOutput, context: HTMLContext) {
        output.appendEscaped(encoded)
    }
}
