import Foundation
import TesseraTesting
import Testing

/// Builds a real package that uses the plugin, in a temporary folder, and checks what `swift build`
/// says when a template is wrong: the errors must point at the template, whoever finds them.
@Suite(.serialized) struct FixturePackageTests {
    static let packageRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        while !FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) {
            url.deleteLastPathComponent()
        }
        return url
    }()

    struct Fixture {
        let root: URL

        init() throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-fixture-\(UUID().uuidString)")
            let tessera = FixturePackageTests.packageRoot
            let identity = tessera.lastPathComponent.lowercased()
            let targets = [
                "Fine", "SyntaxError", "Misspelt", "WrongModel", "MissingSlot", "UnknownSlot", "MisspeltRoute", "MissingParameter", "MissingMessage",
            ].map { name in
                """
                        .target(
                            name: "\(name)",
                            dependencies: [.product(name: "TesseraViews", package: "\(identity)")],
                            plugins: [.plugin(name: "TesseraViewsPlugin", package: "\(identity)")]
                        ),
                """
            }.joined(separator: "\n")
            try write(
                "Package.swift",
                """
                // swift-tools-version:6.1
                import PackageDescription

                let package = Package(
                    name: "Fixture",
                    dependencies: [.package(path: "\(tessera.path)")],
                    targets: [
                \(targets)
                    ]
                )
                """)
            let item = "struct Item { var name: String; var price: Int }\nstruct Other {}\n"
            for target in [
                "Fine", "SyntaxError", "Misspelt", "WrongModel", "MissingSlot", "UnknownSlot", "MisspeltRoute", "MissingParameter", "MissingMessage",
            ] {
                try write("Sources/\(target)/Item.swift", item)
            }
            // A message the German catalog lacks: the catalogs only warn, the template fails.
            try write("Views/MissingMessage/locales/en.json", "{\n  \"greeting\": \"Hello, {name}\",\n  \"bye\": \"Bye\"\n}\n")
            try write("Views/MissingMessage/locales/de.json", "{\n  \"bye\": \"Tschüss\"\n}\n")
            try write(
                "Views/MissingMessage/hello.html", "{% model item: Item %}\n<p>{{ t \"bye\" }}</p>\n<p>{{ t \"greeting\" name: item.name }}</p>\n")
            try write("Views/Fine/card.html", "{% model item: Item %}\n<h2>{{ item.name }}</h2>\n<p>{{ item.price }}</p>\n")
            try write(
                "Views/Fine/list.html",
                "{% model items: [Item] %}\n<ul>{% for item in items %}<li>{% render CardView(item) %}</li>{% endfor %}</ul>\n")
            try write("Sources/Fine/Use.swift", "import TesseraViews\nfunc use() -> String { CardView.render(Item(name: \"a\", price: 1)).string }\n")
            try write("Views/SyntaxError/broken.html", "{% model item: Item %}\n<ul>\n{% for x in item.name %}\n<li>{{ x }}</li>\n</ul>\n")
            try write("Views/Misspelt/card.html", "{% model item: Item %}\n<h2>{{ item.name }}</h2>\n<p>{{ item.prise }}</p>\n")
            try write("Views/WrongModel/card.html", "{% model item: Item %}\n<h2>{{ item.name }}</h2>\n")
            try write("Sources/WrongModel/Use.swift", "import TesseraViews\nfunc use() -> String { CardView.render(Other()).string }\n")
            // Region slots: the page must fill every required slot, and only slots its template has.
            let page = "{% model item: Item %}\n<h1>{{ item.name }}</h1>\n{% region \"detail\" %}\n{% region \"your-reviews\" optional %}\n"
            try write("Views/Fine/page.html", page)
            try write("Sources/Fine/Slots.swift", "let slots = PageView.Regions<String>(detail: \"d\", yourReviews: \"r\").filled.map(\\.name)\n")
            try write("Views/MissingSlot/page.html", page)
            try write("Sources/MissingSlot/Slots.swift", "let slots = PageView.Regions<String>(yourReviews: \"r\")\n")
            try write("Views/UnknownSlot/page.html", page)
            try write("Sources/UnknownSlot/Slots.swift", "let slots = PageView.Regions<String>(detail: \"d\", related: \"r\")\n")
            // Links to routes: the generated code names the route and passes its parameters, so the
            // Swift compiler checks both, at the template's line. The routes here have the shape
            // of Tessera's `Route` (`path(_:)`, and a `path` property only for a route without
            // parameters), so the fixture needs `TesseraViews` alone; the storefront's templates
            // link to the real routes.
            let routes = """
                struct NoParameters {}
                struct Route<Parameters> {
                    let pattern: String
                    func path(_ parameters: Parameters) -> String { pattern + "/\\(parameters)" }
                }
                extension Route where Parameters == NoParameters { var path: String { pattern } }
                enum ShopRoutes {
                    static let list = Route<NoParameters>(pattern: "/")
                    static let product = Route<Int>(pattern: "/products")
                }

                """
            let links =
                "{% model item: Item %}\n<a href=\"{{ route ShopRoutes.list }}\">All</a>\n<a href=\"{{ route ShopRoutes.product(item.price) }}\">{{ item.name }}</a>\n"
            try write("Sources/Fine/Routes.swift", routes)
            try write("Views/Fine/links.html", links)
            try write("Sources/Fine/Links.swift", "func links() -> String { LinksView.render(Item(name: \"a\", price: 7)).string }\n")
            for target in ["MisspeltRoute", "MissingParameter"] { try write("Sources/\(target)/Routes.swift", routes) }
            try write("Views/MisspeltRoute/links.html", links.replacingOccurrences(of: "ShopRoutes.product(", with: "ShopRoutes.prodcut("))
            try write(
                "Views/MissingParameter/links.html", links.replacingOccurrences(of: "ShopRoutes.product(item.price)", with: "ShopRoutes.product"))
        }

        func write(_ path: String, _ text: String) throws {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }

        /// `swift build --target …`: its exit status and everything it printed. One job at a time,
        /// so that the rest of the suite, which runs meanwhile, keeps a core.
        func build(_ target: String) async throws -> CommandOutput {
            try await CommandOutput.of(["swift", "build", "--jobs", "1", "--package-path", root.path, "--target", target])
        }

        /// The same through `scripts/swift.sh`, as Tessera's Makefile and the apps' do.
        func buildThroughTesserasScript(_ target: String) async throws -> CommandOutput {
            let script = FixturePackageTests.packageRoot.appendingPathComponent("scripts/swift.sh").path
            return try await CommandOutput.of([script, "build", "--jobs", "1", "--package-path", root.path, "--target", target])
        }
    }

    /// The views a build compiled, by the lines SwiftPM prints for their commands.
    static func compiledViews(_ output: String) -> [String] {
        output.split(separator: "\n").filter { $0.contains("Compiling") && $0.hasSuffix(".html") }.map(String.init)
    }

    /// SwiftPM keeps its build plan while nothing it watches changes, and it does not watch
    /// `Views/`, outside every target's folder: without `scripts/swift.sh`'s list of templates,
    /// a new template is never compiled and a removed one stops the build at "missing inputs".
    @Test(.timeLimit(.minutes(15)))
    func aTemplateAddedOrRemovedIsInTheNextBuild() async throws {
        let fixture = try Fixture()
        defer { try? FileManager.default.removeItem(at: fixture.root) }
        let first = try await fixture.buildThroughTesserasScript("Fine")
        #expect(first.status == 0, "the fixture itself must build:\n\(first.output)")

        try fixture.write("Views/Fine/badge.html", "{% model item: Item %}\n<b>{{ item.name }}</b>\n")
        let added = try await fixture.buildThroughTesserasScript("Fine")
        #expect(added.status == 0, "\(added.output)")
        #expect(Self.compiledViews(added.output).contains { $0.contains("badge.html") }, "the new template is compiled:\n\(added.output)")

        try FileManager.default.removeItem(at: fixture.root.appendingPathComponent("Views/Fine/badge.html"))
        let removed = try await fixture.buildThroughTesserasScript("Fine")
        #expect(removed.status == 0, "a removed template leaves the build:\n\(removed.output)")
        #expect(!removed.output.contains("missing inputs"), "\(removed.output)")
    }

    @Test(.timeLimit(.minutes(15)))
    func templateMistakesFailTheBuildAtTheTemplate() async throws {
        let fixture = try Fixture()
        defer { try? FileManager.default.removeItem(at: fixture.root) }

        let fine = try await fixture.build("Fine")
        #expect(fine.status == 0, "the fixture itself must build:\n\(fine.output)")

        // Editing one template recompiles that view only.
        let compiledViews = Self.compiledViews
        // The first rebuild after a fresh build runs the view commands once more, because SwiftPM
        // sees the newly built compiler tool; from then on, builds are incremental.
        _ = try await fixture.build("Fine")
        let unchanged = try await fixture.build("Fine")
        #expect(compiledViews(unchanged.output).isEmpty, "\(unchanged.output)")
        try fixture.write("Views/Fine/card.html", "{% model item: Item %}\n<h3>{{ item.name }}</h3>\n")
        let edited = try await fixture.build("Fine")
        #expect(edited.status == 0)
        #expect(compiledViews(edited.output).count == 1, "\(edited.output)")
        #expect(compiledViews(edited.output).first?.contains("card.html") == true, "\(edited.output)")

        let syntax = try await fixture.build("SyntaxError")
        #expect(syntax.status != 0)
        #expect(syntax.output.contains("Views/SyntaxError/broken.html:3:1: error: unclosed {% for %}"), "\(syntax.output)")

        let misspelt = try await fixture.build("Misspelt")
        #expect(misspelt.status != 0)
        #expect(misspelt.output.contains("Views/Misspelt/card.html:3:"), "\(misspelt.output)")
        #expect(misspelt.output.contains("has no member 'prise'"), "\(misspelt.output)")

        let missingMessage = try await fixture.build("MissingMessage")
        #expect(missingMessage.status != 0)
        #expect(
            missingMessage.output.contains(
                "Views/MissingMessage/hello.html:3:4: error: the message “greeting” is missing from Views/MissingMessage/locales/de.json"),
            "\(missingMessage.output)")

        let wrongModel = try await fixture.build("WrongModel")
        #expect(wrongModel.status != 0)
        #expect(wrongModel.output.contains("cannot convert value of type 'Other' to expected argument type"), "\(wrongModel.output)")
        #expect(wrongModel.output.contains("(aka 'Item')"), "\(wrongModel.output)")
        #expect(wrongModel.output.contains("Sources/WrongModel/Use.swift:2:"), "\(wrongModel.output)")

        // A page that leaves out a required region slot, or fills one its template does not have,
        // does not compile. For a missing slot the compiler's note points at the template's slots.
        let missing = try await fixture.build("MissingSlot")
        #expect(missing.status != 0)
        #expect(missing.output.contains("missing argument for parameter 'detail'"), "\(missing.output)")
        #expect(missing.output.contains("Views/MissingSlot/page.html:3:"), "\(missing.output)")
        let unknown = try await fixture.build("UnknownSlot")
        #expect(unknown.status != 0)
        #expect(unknown.output.contains("Sources/UnknownSlot/Slots.swift:1:60: error: extra argument 'related'"), "\(unknown.output)")

        // A link to a route that does not exist, or without the route's parameter, fails at the
        // template's line.
        let misspeltRoute = try await fixture.build("MisspeltRoute")
        #expect(misspeltRoute.status != 0)
        #expect(misspeltRoute.output.contains("Views/MisspeltRoute/links.html:3:"), "\(misspeltRoute.output)")
        #expect(misspeltRoute.output.contains("has no member 'prodcut'"), "\(misspeltRoute.output)")
        let missingParameter = try await fixture.build("MissingParameter")
        #expect(missingParameter.status != 0)
        #expect(missingParameter.output.contains("Views/MissingParameter/links.html:3:"), "\(missingParameter.output)")
    }
}
