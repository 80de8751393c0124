import Foundation
import TesseraTesting
import Testing

/// English and German: the language comes from the URL's `?lang=` (remembered in the session, as
/// the switcher sets it), else the session's, else `Accept-Language`; pages, prices, plurals,
/// flashes and `<html lang>` follow it, and caches are told what it depended on.
@Suite(.serialized) struct LanguageTests {
    @Test func theBrowsersLanguageChoosesTheFirstPage() async throws {
        try await TestStorefront.run { shop in
            let browser = TestClient(port: shop.port)
            let german = try await browser.send("/products/2", headers: ["Accept-Language": "de-AT, de;q=0.9, en;q=0.5"])
            #expect(german.status == 200)
            #expect(german.text.contains(#"<html lang="de">"#))
            #expect(german.header("content-language") == "de")
            #expect(german.header("vary")?.contains("Accept-Language") == true, "\(german.header("vary") ?? "")")
            #expect(german.header("vary")?.contains("Cookie") == true)
            #expect(german.text.contains("Ähnliche Produkte"))
            // The price as German writes money: decimal comma, the sign after.
            let price = try #require(german.text.firstMatch(of: /data-price-minor="(\d+)">([^<]+)</))
            let minor = try #require(Int(price.1))
            #expect(String(price.2) == String(format: "%d,%02d\u{00A0}$", minor / 100, minor % 100))

            for header in ["en-GB,en;q=0.9", "fr-FR, *;q=0", "de;q=0, en", ";;;,q=2", String(repeating: "x,", count: 500)] {
                let english = try await browser.send("/", headers: ["Accept-Language": header])
                #expect(english.status == 200, "\(header)")
                #expect(english.text.contains(#"<html lang="en">"#), "\(header)")
            }
            let bare = try await shop.get("/")
            #expect(bare.text.contains(#"<html lang="en">"#), "nothing said: the first language")
        }
    }

    @Test func theSwitcherLinksTheSamePageAndItsChoiceIsRemembered() async throws {
        try await TestStorefront.run { shop in
            let browser = TestClient(port: shop.port)
            let english = try await browser.send("/?category=kitchen&sort=price", headers: ["Accept-Language": "en"])
            let switcher = try #require(english.text.firstMatch(of: /<a href="([^"]+)" hreflang="de" lang="de">Deutsch<\/a>/)?.1)
            #expect(switcher == "/?category=kitchen&amp;sort=price&amp;lang=de")

            let german = try await browser.send("/?category=kitchen&sort=price&lang=de", headers: ["Accept-Language": "en"])
            #expect(german.text.contains(#"<html lang="de">"#))
            // A language chosen by hand starts a session that remembers it (no cookie of its own).
            #expect(
                german.headers("set-cookie").contains { $0.hasPrefix("tessera_session=") && $0.contains("HttpOnly") && $0.contains("SameSite=Lax") })
            #expect(!german.headers("set-cookie").contains { $0.hasPrefix("lang=") })
            #expect(german.header("cache-control")?.contains("private") == true, "an answer that sets a cookie is not for shared caches")
            let canonical = try #require(german.text.firstMatch(of: /<link rel="canonical" href="([^"]+)">/)?.1)
            #expect(canonical.hasSuffix("/?category=kitchen&amp;lang=de"), "the sort is dropped, the language kept: \(canonical)")
            #expect(german.text.contains("Preis aufsteigend"))
            #expect(
                german.text.contains(
                    #"<a href="/?category=kitchen&amp;sort=price&amp;lang=de" hreflang="de" lang="de" aria-current="true">Deutsch</a>"#))

            // The session now decides, over the browser's header, on every page and form.
            let cart = try await browser.send("/cart", headers: ["Accept-Language": "en"])
            #expect(cart.text.contains("<h1>Ihr Warenkorb</h1>"))
            let added = try await browser.submit(from: "/products/2", to: "/cart/items", form: "productID=2&quantity=3")
            #expect(added.status == 303)
            let page = try await browser.send("/cart")
            #expect(page.text.contains("3 × "), "\(page.text)")
            #expect(page.text.contains(" in den Warenkorb gelegt.</p>"), "the flash, in German")
            #expect(page.text.contains(#"<p class="item-count">3 Artikel</p>"#))
            #expect(page.text.contains("Zur Kasse"))

            // Back to English by the switcher.
            let back = try await browser.send("/cart?lang=en")
            #expect(back.text.contains("<h1>Your cart</h1>"))
            #expect(back.text.contains(#"<p class="item-count">3 items</p>"#))
        }
    }

    @Test func switchingWhileSignedInKeepsThePageOutOfEveryCache() async throws {
        try await TestStorefront.run { shop in
            let browser = TestClient(port: shop.port)
            let signedIn = try await browser.submit(from: "/login", to: "/login", form: "email=ada@example.com&password=ada-lovelace-1815")
            #expect(signedIn.status == 303)
            let orders = try await browser.send("/orders?lang=de")
            #expect(orders.status == 200)
            #expect(orders.text.contains("<h1>Ihre Bestellungen</h1>"))
            #expect(orders.headers("set-cookie").contains { $0.hasPrefix("tessera_session=") }, "the session remembers it")
            #expect(orders.header("cache-control") == "private, no-store", "not weakened by the language's choice")
            // An error page is in the chosen language, with the language's headers.
            let missing = try await browser.send("/no/such/page", headers: ["Accept": "text/html"])
            #expect(missing.status == 404)
            #expect(missing.text.contains("404 Nicht gefunden"))
            #expect(missing.text.contains("Unter dieser Adresse gibt es nichts."), "the framework's message too")
            #expect(missing.header("content-language") == "de")
            // A service's refusal, and an order's, in German as well.
            let noProduct = try await browser.send("/products/9999", headers: ["Accept": "text/html"])
            #expect(noProduct.status == 404 && noProduct.text.contains("Es gibt kein Produkt Nr. 9999."))
            let noOrder = try await browser.send("/orders/9999", headers: ["Accept": "text/html"])
            #expect(noOrder.status == 404 && noOrder.text.contains("In Ihrem Konto gibt es keine Bestellung Nr. 9999."))
            let badFilter = try await browser.send("/orders?status=lost", headers: ["Accept": "text/html"])
            #expect(badFilter.status == 400 && badFilter.text.contains("Filtern Sie nach einem dieser Status: awaiting_payment, paid"))
            // JSON clients and logs read the English words.
            let json = try await browser.send("/products/9999", headers: ["Accept": "application/json"])
            #expect(json.text.contains("There is no product 9999."), "\(json.text)")
            #expect(missing.header("vary")?.contains("Cookie") == true)
        }
    }

    @Test func theSwitcherLinksStayOnTheSite() async throws {
        try await TestStorefront.run { shop in
            let page = try await shop.get("//evil.example/")
            let links = page.text.matches(of: /<a href="([^"]+)" hreflang="(?:en|de)"/).map { String($0.1) }
            #expect(links.count == 2, "\(page.text)")
            #expect(links.allSatisfy { $0.hasPrefix("/?") || ($0.hasPrefix("/") && !$0.hasPrefix("//")) }, "\(links)")
            let encoded = try await shop.get("/search%3Fq%3Dx/?a=%26b&lang=en")
            #expect(encoded.text.contains(#"href="/search%3Fq%3Dx/?a=%26b&amp;lang=de""#), "the target stays encoded")
        }
    }

    @Test func aLanguageTheShopLacksIsRefusedAndAStaleCookieIgnored() async throws {
        try await TestStorefront.run { shop in
            let browser = TestClient(port: shop.port)
            for bad in ["fr", "", "de-DE", "%00", String(repeating: "d", count: 5000)] {
                let refused = try await browser.send("/?lang=" + bad, headers: ["Accept": "text/html"])
                #expect(refused.status == 400, "\(bad.prefix(20))")
                #expect(refused.text.contains(#"data-view="ErrorPage""#), "an HTML page: \(bad.prefix(20))")
                #expect(refused.text.contains("lang=de"), "it says what there is")
                #expect(refused.text.contains("This shop speaks"), "in the language the other sources chose: English")
                #expect(refused.headers("set-cookie").allSatisfy { !$0.hasPrefix("lang=") })
            }
            // The refusal quotes what was sent, but never its control characters.
            let controls = try await browser.send("/?lang=x%07%0D%0Ay%1B%7F%C2%85z", headers: ["Accept": "text/html"])
            #expect(controls.status == 400)
            #expect(controls.text.contains("“xyz”"), "the quoted value, without its control characters")
            #expect(
                !controls.text.unicodeScalars.contains { $0.value == 0x07 || $0.value == 0x1B || $0.value == 0x7F || $0.value == 0x85 || $0 == "\r" })
            let json = try await browser.send("/?lang=x%07y", headers: ["Accept": "application/json"])
            #expect(json.status == 400 && !json.text.contains("\\u0007") && json.text.contains("“xy”"), "\(json.text)")
            let refusedInGerman = try await browser.send("/?lang=fr", headers: ["Accept": "text/html", "Accept-Language": "de"])
            #expect(refusedInGerman.status == 400 && refusedInGerman.text.contains("Dieser Shop spricht"))
            let stale = try await browser.send("/", headers: ["Cookie": "lang=klingon", "Accept-Language": "de"])
            #expect(stale.status == 200)
            #expect(stale.text.contains(#"<html lang="de">"#), "the cookie of the language before sessions kept it is not read")
            #expect(try await shop.get("/").status == 200, "the server is still up")
        }
    }

    @Test func theServersOwnRefusalsSpeakTheVisitorsLanguage() async throws {
        try await TestStorefront.run { shop in
            func raw(_ head: String) async throws -> TestResponse {
                try await onThread {
                    let client = try RawHTTPClient(port: shop.port)
                    try client.send(head)
                    return try client.readReply()
                }
            }
            // Refused from its head, before the app or the body: the error step still knows the
            // language, from the header or from `?lang=`.
            let tooLarge =
                "Host: x\r\nAccept: text/html\r\nContent-Type: application/x-www-form-urlencoded\r\nExpect: 100-continue\r\nContent-Length: 5000000\r\n"
            let german = try await raw("POST /cart/items HTTP/1.1\r\n\(tooLarge)Accept-Language: de\r\n\r\n")
            #expect(german.status == 413)
            #expect(german.text.contains("413 Inhalt zu groß") && german.text.contains("Der Inhalt der Anfrage ist größer als"), "\(german.text)")
            #expect(german.text.contains(#"<html lang="de">"#))
            let byQuery = try await raw("POST /cart/items?lang=de HTTP/1.1\r\n\(tooLarge)\r\n")
            #expect(byQuery.status == 413 && byQuery.text.contains("Der Inhalt der Anfrage ist größer als"), "\(byQuery.text)")
            let english = try await raw("POST /cart/items HTTP/1.1\r\n\(tooLarge)\r\n")
            #expect(english.status == 413 && english.text.contains("The request body is larger than"), "\(english.text)")

            let path = try await raw("GET /%2e%2e/secret HTTP/1.1\r\nHost: x\r\nAccept: text/html\r\nAccept-Language: de\r\n\r\n")
            #expect(path.status == 400 && path.text.contains("Der Pfad enthält ein Segment „.“ oder „..“."), "\(path.text)")
            let method = try await raw("BREW / HTTP/1.1\r\nHost: x\r\nAccept: text/html\r\nAccept-Language: de\r\n\r\n")
            #expect(
                method.status == 501 && method.text.contains("501 Nicht implementiert")
                    && method.text.contains("Die Methode BREW wird nicht unterstützt."),
                "\(method.text)")
            let json = try await raw("BREW / HTTP/1.1\r\nHost: x\r\nAccept: application/json\r\nAccept-Language: de\r\n\r\n")
            #expect(json.status == 501 && json.text.contains("The method BREW is not supported."), "JSON stays English: \(json.text)")
            #expect(try await shop.get("/").status == 200, "the server is still up")
        }
    }

    @Test func numbersCountAndListingsSayThemInGerman() async throws {
        try await TestStorefront.run { shop in
            let list = try await shop.get("/?lang=de")
            #expect(list.text.contains("<p class=\"summary\">1–12 von 40 Produkten</p>"), "\(list.text)")
            #expect(list.text.contains("<title>Alle Produkte · Tessera Shop</title>"))
            let one = try await shop.get("/?q=fountain&lang=de")
            #expect(one.text.contains("<p class=\"summary\">1–1 von 1 Produkt</p>"), "German's singular")
            let english = try await shop.get("/?lang=en")
            #expect(english.text.contains("<p class=\"summary\">Showing 1–12 of 40 products</p>"))
        }
    }
}
