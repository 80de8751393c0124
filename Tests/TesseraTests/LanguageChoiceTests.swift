import TesseraViews
import Testing

@testable import Tessera

/// The switcher's and the alternates' links, cut from the request's target.
@Suite struct LanguageChoiceTests {
    let german = Language("de", currencies: ["USD"])

    func choice(_ target: String, isGet: Bool = true) -> LanguageChoice {
        LanguageChoice(
            current: .english, available: [.english, german], source: .header, parameter: "lang",
            refusedValue: nil, target: target, isGet: isGet)
    }

    /// `Accept-Language`, read in place: weights, primary subtags, `*` for the languages the
    /// header does not name, and anything malformed ignored.
    @Test func acceptLanguageFindsTheBestLanguageTheAppHas() {
        let available = [Language.english, german]
        func best(_ header: String) -> String? { AcceptLanguage(header).bestMatch(in: available)?.code }
        #expect(best("de-AT, de;q=0.9, en;q=0.5") == "de", "a primary subtag")
        #expect(best("fr, en;q=0.2, de;q=0.8") == "de", "the highest weight")
        #expect(best("en;q=0.5, de;q=0.5") == "en", "the earliest among equals")
        #expect(best("DE") == "de", "without case")
        #expect(best("de;q=0, en") == "en")
        #expect(best("de;q=0") == nil, "refused, and nothing else asked for")
        #expect(best("fr-FR, *;q=0") == nil)
        #expect(best("*;q=0.5, en;q=0.1") == "de", "`*` is the languages not named")
        #expect(best("de ; Q=0.7 , en;q=0.6") == "de", "spaces and an upper-case Q")
        #expect(best(";;;,q=2") == nil)
        #expect(best("de;q=2, en;q=0.1") == "en", "a weight over 1 is no weight")
        #expect(best("de;q=0.5x, en;q=0.1") == "en", "nor is a malformed one")
        #expect(best("de;q=0.1234, en;q=0.1") == "en", "at most three decimals")
        #expect(best(String(repeating: "fr,", count: 40) + "de") == nil, "past the first 32, ignored")
        #expect(best("") == nil)
    }

    @Test func thePageInAnotherLanguageKeepsItsPathAndQuery() {
        #expect(choice("/products/1").url(in: german) == "/products/1?lang=de")
        #expect(choice("/?q=lamp&lang=en&sort=price").url(in: german) == "/?q=lamp&sort=price&lang=de", "the old choice goes")
        #expect(choice("/?lang&q=a&&language=x").url(in: german) == "/?q=a&language=x&lang=de", "only the parameter itself, empty items dropped")
        #expect(choice("/a%3Fb?x=%26").url(in: german) == "/a%3Fb?x=%26&lang=de", "still encoded")
        #expect(choice("///evil.example/x?y=1").url(in: german) == "/evil.example/x?y=1&lang=de", "one leading slash")
        #expect(choice("//").url(in: german) == "/?lang=de")
        #expect(choice("/\\evil.example/").url(in: german) == "/evil.example/?lang=de", "browsers read a backslash as a slash")
        #expect(choice("/\\/\\x").url(in: german) == "/x?lang=de")
        #expect(choice("/a\\b").url(in: german) == "/a\\b?lang=de", "only the leading run")
        #expect(choice("*").url(in: german) == "/?lang=de", "not a path")
        #expect(choice("/cart/items", isGet: false).url(in: german) == "/?lang=de", "a form's answer links the home page")
    }

    @Test func aPathInALanguageAddsTheParameter() {
        #expect(choice("/").url(for: "/products/1", in: german) == "/products/1?lang=de")
        #expect(choice("/").url(for: "/?page=2", in: german) == "/?page=2&lang=de")
    }
}
