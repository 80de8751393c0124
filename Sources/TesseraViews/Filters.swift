public import Foundation

/// The filters templates can apply with `|`: `{{ name | uppercase }}`,
/// `{{ order.placedAt | date: "yyyy-MM-dd" }}`. A filter is a static function here, so an app
/// adds its own in an extension, and the compiler checks every use.
public enum Filters {
    /// `{{ name | uppercase }}`.
    public static func uppercase(_ value: String) -> String { value.uppercased() }
    /// `{{ name | lowercase }}`.
    public static func lowercase(_ value: String) -> String { value.lowercased() }
    /// `{{ name | capitalized }}`: each word with a capital.
    public static func capitalized(_ value: String) -> String { value.capitalized }

    /// At most `length` characters, with `…` when something was cut.
    public static func truncate(_ value: String, _ length: Int) -> String {
        value.count <= length ? value : String(value.prefix(max(0, length - 1))) + "…"
    }

    /// A date in the given ICU pattern, in UTC and the POSIX locale, so pages do not depend on
    /// the server's settings.
    public static func date(_ value: Date, _ format: String) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = format
        return formatter.string(from: value)
    }

    /// JSON that is safe in `<script>` and, escaped as usual, anywhere else.
    public static func json(_ value: some Encodable) -> ScriptJSON {
        ScriptJSON(value)
    }
}
