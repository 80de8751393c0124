public import TesseraViews

/// The language a request is answered in, and how it was chosen: what the layout needs for
/// `<html lang>`, the language switcher and the `hreflang` alternates.
///
/// A class: the request's context, which carries it, is copied into every step and region of
/// a page, and one reference costs one retain per copy where its fields would cost six.
public final class LanguageChoice: Sendable {
    /// How the language was chosen, from the most explicit.
    public enum Source: Sendable, Equatable {
        /// The URL names it (`?lang=de`): the page can be linked and crawled in that language.
        case url
        /// The shopper chose it earlier, and their session remembers.
        case session
        /// The browser's `Accept-Language`.
        case header
        /// Nothing said: the app's first language.
        case fallback
    }

    /// The language of the answer.
    public let current: Language
    /// Every language the app has, in the order it gave them.
    public let available: [Language]
    public let source: Source
    /// The query parameter that names a language in URLs.
    public let parameter: String
    /// A `?lang=` value the app does not have, which ``LanguageParameterCheck`` refuses; the
    /// answer is then in the language the other sources give.
    public let refusedValue: String?
    /// The request's target as it came, still percent-encoded: `/products/1?lang=de`.
    let target: String
    let isGet: Bool

    init(current: Language, available: [Language], source: Source, parameter: String, refusedValue: String?, target: String, isGet: Bool) {
        self.current = current
        self.available = available
        self.source = source
        self.parameter = parameter
        self.refusedValue = refusedValue
        self.target = target
        self.isGet = isGet
    }

    /// `path` (which may have a query) in `language`: the link a sitemap or an `hreflang`
    /// alternate gives for that language.
    public func url(for path: String, in language: Language) -> String {
        // Bytes, not `contains("?")`: Foundation's substring search cost a microsecond a link.
        path + (path.utf8.contains(UInt8(ascii: "?")) ? "&" : "?") + parameter + "=" + language.code
    }

    /// This page's URL in `language`: the path and query as requested (still encoded, so
    /// nothing is decoded into a different URL), with the language parameter set, on this
    /// site: leading slashes and backslashes are one slash, so `//other.example/` or
    /// `/\other.example/` (which browsers read as `//`) cannot become a link elsewhere.
    /// An answer to a form (a POST) links the home page instead, which a GET can reach.
    public func url(in language: Language) -> String {
        let setting = parameter + "=" + language.code
        guard isGet else { return "/?" + setting }
        // Every page's switcher builds these, so they are cut from the target's bytes without
        // splitting it into arrays of strings.
        let bytes = target.utf8
        let questionMark = bytes.firstIndex(of: UInt8(ascii: "?")) ?? bytes.endIndex
        var url = "/"
        if bytes.first == UInt8(ascii: "/") {
            var rest = bytes.index(after: bytes.startIndex)
            while rest < questionMark, bytes[rest] == UInt8(ascii: "/") || bytes[rest] == UInt8(ascii: "\\") {
                rest = bytes.index(after: rest)
            }
            url += target[rest..<questionMark]
        }
        url += "?"
        if questionMark < bytes.endIndex {
            for item in target[bytes.index(after: questionMark)...].utf8.split(separator: UInt8(ascii: "&")) where !Self.names(item, parameter) {
                url += String(Substring(item))
                url += "&"
            }
        }
        return url + setting
    }

    /// Whether a query item (`name=value`, or `name`) is named `name`.
    private static func names(_ item: Substring.UTF8View, _ name: String) -> Bool {
        let end = item.firstIndex(of: UInt8(ascii: "=")) ?? item.endIndex
        return item[..<end].elementsEqual(name.utf8)
    }
}
