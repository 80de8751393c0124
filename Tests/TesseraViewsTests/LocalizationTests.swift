import Foundation
import TesseraTemplateCompiler
import TesseraViews
import Testing

/// Two languages: CLDR plurals, per-language numbers and money, message patterns, and the
/// build-time checks of catalogs and of the templates that use them.
@Suite struct LocalizationTests {
    @Test func pluralCategoriesFollowCLDR() {
        let english = (0...3).map { PluralRules.category(for: $0, languageCode: "en") }
        #expect(english == [.other, .one, .other, .other])
        #expect((0...3).map { PluralRules.category(for: $0, languageCode: "de") } == [.other, .one, .other, .other])
        // French counts zero as singular; Polish and Russian have few and many.
        #expect(PluralRules.category(for: 0, languageCode: "fr") == .one)
        #expect(PluralRules.category(for: 1_000_000, languageCode: "fr") == .many)
        #expect([1, 2, 5, 12, 22, 25].map { PluralRules.category(for: $0, languageCode: "pl") } == [.one, .few, .many, .many, .few, .many])
        #expect([1, 21, 11, 3, 13].map { PluralRules.category(for: $0, languageCode: "ru") } == [.one, .one, .many, .few, .many])
        #expect(PluralRules.categories(forLanguageCode: "de") == [.one, .other])
        #expect(PluralRules.categories(forLanguageCode: "xx") == nil)
    }

    @Test func numbersAndMoneyAreWrittenAsEachLanguageWritesThem() {
        let english = Language("en-US", currencies: ["USD"])
        let german = Language("de-DE", currencies: ["USD"])
        #expect(english.code == "en" && german.code == "de")
        #expect(german.name == "Deutsch")
        #expect(english.format(1_234_567) == "1,234,567")
        #expect(german.format(1_234_567) == "1.234.567")
        #expect(german.format(999) == "999")
        #expect(english.format(1_000) == "1,000" && english.format(12_345) == "12,345" && english.format(123_456) == "123,456")
        #expect(english.format(-1_234) == "-1,234" && english.format(-12) == "-12" && english.format(0) == "0")
        #expect(english.format(minor: 123_450, currency: "USD") == "$1,234.50")
        #expect(german.format(minor: 123_450, currency: "USD") == "1.234,50\u{00A0}$")
        #expect(german.format(minor: -5, currency: "USD") == "-0,05\u{00A0}$")
        // A currency not given at start is looked up when asked.
        #expect(german.format(minor: 1_000, currency: "EUR") == "10,00\u{00A0}€")
    }

    @Test func patternsSplitAtNamedPlaceholdersOnly() {
        #expect(
            MessagePattern("Order #{id} is {state}.").segments == [
                .literal("Order #"), .placeholder("id"), .literal(" is "), .placeholder("state"), .literal("."),
            ])
        #expect(MessagePattern("a {b c} {1} {").segments == [.literal("a {b c} {1} {")])
        #expect(MessagePattern("{count}{count}").placeholders == ["count"])
    }

    @Test func aMessageRendersInTheOutputsLanguageEscapedLikeAnyValue() {
        let items = LocalizedMessage(
            key: "cart.items",
            [
                "en": .plural([.one: "{count} item in {name}", .other: "{count} items in {name}"]),
                "de": .plural([.one: "{count} Artikel in {name}", .other: "{count} Artikel in {name}"]),
            ])
        var german = HTMLOutput(language: Language("de"))
        german.text(items.text(count: 1_200, ["name": "<b>Körbe</b>"]))
        #expect(german.string == "1.200 Artikel in &lt;b&gt;Körbe&lt;/b&gt;")
        var english = HTMLOutput(language: .english)
        english.text(items.text(count: 1, ["name": "Baskets"]))
        #expect(english.string == "1 item in Baskets")
        // A language the module lacks gets the first one's text, not a blank.
        #expect(items.string(in: Language("fr"), count: 2, ["name": "x"]) == "2 items in x")
        // Only quantities are grouped: an order number is not "1.234".
        let order = LocalizedMessage(key: "order", ["en": .text("Order #{id}: {items} items")])
        #expect(order.string(in: Language("de"), ["id": 12_345, "items": LocalizedNumber(12_345)]) == "Order #12345: 12.345 items")
    }

    @Test func fixedWordsAreCopiedEscapedOrAsTheyAre() {
        let title = LocalizedMessage(key: "shop.title", ["en": .text("Fish & Chips"), "de": .text("Fisch & Pommes <frisch>")])
        var page = HTMLOutput(language: Language("de"))
        page.text(title)
        page.attribute(title.text())
        #expect(page.string == "Fisch &amp; Pommes &lt;frisch&gt;Fisch &amp; Pommes &lt;frisch&gt;")
        #expect(title.string(in: Language("de")) == "Fisch & Pommes <frisch>", "unescaped for Swift code")
        #expect(title.string(in: Language("fr")) == "Fish & Chips", "the first language for one the module lacks")
    }

    // MARK: Build-time checks

    struct Catalogs {
        let folder: URL

        init(_ files: [String: String]) throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-locales-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for (name, text) in files { try text.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8) }
        }

        func load() throws(TemplateError) -> MessageCatalogs {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            return try MessageCatalogs(files: names.sorted().map { (folder.appendingPathComponent($0).path, "Views/Shop/locales/" + $0) })
        }
    }

    static let english = """
        {
          "cart.title": "Your cart",
          "cart.items": { "one": "{count} item", "other": "{count} items" },
          "order.placed": "Order #{id} is placed"
        }
        """
    static let german = """
        {
          "cart.title": "Ihr Warenkorb",
          "cart.items": { "one": "{count} Artikel", "other": "{count} Artikel" }
        }
        """

    func compile(_ template: String, catalogs: MessageCatalogs) -> String {
        do {
            return try TemplateCompiler.compile(source: template, path: "Views/Shop/cart.html", relativePath: "cart.html", catalogs: catalogs)
        } catch {
            return error.description
        }
    }

    @Test func aKeyALanguageLacksFailsTheTemplateAtItsLine() throws {
        let catalogs = try Catalogs(["en.json": Self.english, "de.json": Self.german]).load()
        #expect(catalogs.catalogs.map(\.languageCode) == ["en", "de"], "English first: the fallback")
        // The catalogs alone only warn, at the line of the key in the file that has it.
        #expect(
            catalogs.missingTranslations.map(\.warningDescription)
                == ["Views/Shop/locales/en.json:4:1: warning: “order.placed” is missing from Views/Shop/locales/de.json"])

        let template = "{% model cart: Cart %}\n<h1>{{ t \"cart.title\" }}</h1>\n<p>{{ t \"order.placed\" id: cart.id }}</p>\n"
        #expect(
            compile(template, catalogs: catalogs)
                == "Views/Shop/cart.html:3:4: error: the message “order.placed” is missing from Views/Shop/locales/de.json")
        let unknown = "{% model cart: Cart %}\n\n<p title=\"{{ t \"cart.titel\" }}\">x</p>\n"
        #expect(
            compile(unknown, catalogs: catalogs)
                == "Views/Shop/cart.html:3:11: error: the message “cart.titel” is missing from Views/Shop/locales/en.json")
    }

    @Test func placeholdersAndCountsAreCheckedAgainstEveryLanguage() throws {
        let catalogs = try Catalogs(["en.json": Self.english, "de.json": Self.german]).load()
        #expect(
            compile("{% model cart: Cart %}\n{{ t \"cart.items\" }}", catalogs: catalogs)
                == "Views/Shop/cart.html:2:1: error: the message “cart.items” needs a value for “count”: t \"cart.items\" count: …")
        #expect(
            compile("{% model cart: Cart %}\n{{ t \"cart.title\" name: cart.name }}", catalogs: catalogs)
                == "Views/Shop/cart.html:2:1: error: the message “cart.title” has no placeholder “name” in any language")
        let fine = compile("{% model cart: Cart %}\n<p>{{ t \"cart.items\" count: cart.count }}</p>", catalogs: catalogs)
        #expect(fine.contains("Messages.cartItems.text(count: cart.count, [:])"), "\(fine)")
        let fixed = compile("{% model cart: Cart %}\n<h1>{{ t \"cart.title\" }}</h1>", catalogs: catalogs)
        #expect(fixed.contains("output.text(Messages.cartTitle)"), "fixed words are the message itself: \(fixed)")
        // Without catalogs, a message cannot be used at all.
        #expect((try? TemplateCompiler.compile(source: "{% model c: C %}{{ t \"a\" }}", path: "p.html", relativePath: "p.html")) == nil)
    }

    @Test func catalogsAreCheckedForTheirLanguagesPluralForms() throws {
        func error(_ files: [String: String]) -> String? {
            do {
                _ = try Catalogs(files).load()
                return nil
            } catch {
                return "\(error)"
            }
        }
        #expect(
            error(["de.json": "{\n  \"n\": { \"other\": \"{count} Artikel\" }\n}"])
                == "Views/Shop/locales/de.json:2:1: error: “n” lacks the plural form “one” that de uses")
        #expect(
            error(["en.json": "{\n  \"n\": { \"one\": \"a\", \"few\": \"b\", \"other\": \"c\" }\n}"])
                == "Views/Shop/locales/en.json:2:1: error: “n”: en has the plural forms one, other, not “few”")
        #expect(
            error(["xx.json": "{ \"n\": { \"other\": \"c\" } }"])
                == "Views/Shop/locales/xx.json:1:1: error: “n” has plural forms, but Tessera has no plural rules for “xx”")
        #expect(error(["en.json": "[1, 2]"]) == "Views/Shop/locales/en.json:1:1: error: a catalog is one JSON object of keys")
        #expect(
            error(["EN.json": "{}"])
                == "Views/Shop/locales/EN.json:1:1: error: a catalog is named by its language code in lower case, such as de.json")
        #expect(error(["en.json": "{ \"a\": 1 }"]) == "Views/Shop/locales/en.json:1:1: error: “a” must be a string, or an object of plural forms")
    }

    @Test func generatedMessagesNameEachKeyInCamelCase() throws {
        let catalogs = try Catalogs(["en.json": Self.english, "de.json": Self.german]).load()
        let swift = try MessagesGenerator.generate(catalogs)
        #expect(swift.contains("static let cartTitle = LocalizedMessage(key: \"cart.title\", ["))
        #expect(swift.contains("\"de\": .plural([.one: \"{count} Artikel\", .other: \"{count} Artikel\"]),"))
        #expect(swift.contains("static let orderPlaced"))
    }
}
