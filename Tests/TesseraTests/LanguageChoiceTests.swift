@testable import Tessera
import Testing
import TesseraViews

/// The switcher's and the alternates' links, cut from the request's target.
@Suite struct LanguageChoiceTests {
    let german = Language("de", currencies: ["USD"])

    func choice(_ target: String, isGet: Bool = true) -> LanguageChoice {
        LanguageChoice(current: .english, available: [.english, german], source: .header, parameter: "lang",
                       refusedValue: nil, target: target, isGet: isGet)
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
