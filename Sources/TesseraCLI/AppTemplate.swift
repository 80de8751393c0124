/// The files of a new app: a package with a library of feature modules (the home page to
/// start with) and its layout, its server, its tests, a Makefile, a Dockerfile and a README. `AppName` is the
/// library, `AppNameServer` the server, `AppNameTests` the tests; `AppNameApp` is the route
/// table, which `tessera generate resource` adds to at its `tessera:` lines.
struct AppTemplate {
    let app: SwiftName
    let tessera: TesseraDependency

    /// How the package finds Tessera.
    enum TesseraDependency {
        case path(String)
        case version(url: String, from: String)

        var packageLine: String {
            switch self {
            case .path(let path): #".package(name: "tessera", path: "\#(path)"),"#
            case .version(let url, let version): #".package(url: "\#(url)", from: "\#(version)"),"#
            }
        }

        /// Where `make dev` finds Tessera's watcher.
        var checkout: String {
            switch self {
            case .path(let path): path
            case .version: ".build/checkouts/tessera"
            }
        }
    }

    var files: GeneratedFiles {
        var files = GeneratedFiles()
        let name = app.type
        files.add("Package.swift", packageManifest)
        files.add("Sources/\(name)/\(name)App.swift", routeTable)
        files.add("Sources/\(name)/\(name)Layout.swift", layout)
        files.add("Views/\(name)/layout.html", layoutView)
        files.add("Public/css/app.css", stylesheet)
        files.add("Sources/\(name)/Home/HomeRoutes.swift", homeRoutes)
        files.add("Sources/\(name)/Home/HomeModule.swift", homeModule)
        files.add("Sources/\(name)/Home/HomePageController.swift", homePageController)
        files.add("Sources/\(name)/Home/GreetingRegion.swift", greetingRegion)
        files.add("Sources/\(name)/Home/GreetingService.swift", greetingService)
        files.add("Sources/\(name)/Home/HomeModels.swift", homeModels)
        files.add("Views/\(name)/home.html", homeView)
        files.add("Views/\(name)/greeting.html", greetingView)
        files.add("Sources/\(name)Server/\(name)ServerCommand.swift", serverCommand)
        files.add("Tests/\(name)Tests/TestApp.swift", testApp)
        files.add("Tests/\(name)Tests/HomeTests.swift", homeTests)
        files.add("Makefile", makefile)
        files.add("Dockerfile", dockerfile)
        files.add(".dockerignore", "# The image takes only what make image staged, and the public files.\n*\n!.build/image\n!Public\n")
        files.add(".gitignore", ".build/\ndata/\nPackage.resolved\n")
        files.add("README.md", readme)
        return files
    }

    /// `import` lines, in the order swift-format keeps them.
    func imports(_ modules: [String]) -> String {
        modules.sorted().map { "import \($0)" }.joined(separator: "\n")
    }

    var packageManifest: String {
        let name = app.type
        return #"""
            // swift-tools-version:6.1
            import PackageDescription

            let package = Package(
                name: "\#(name)",
                platforms: [.macOS("26.0")],
                dependencies: [
                    \#(tessera.packageLine)
                    .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.5.0"),
                    .package(url: "https://github.com/apple/swift-log.git", from: "1.16.0"),
                    .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.0.0"),
                ],
                targets: [
                    // The app's feature modules and its route table (\#(name)App).
                    .target(
                        name: "\#(name)",
                        dependencies: [
                            .product(name: "Tessera", package: "tessera"),
                            .product(name: "TesseraViews", package: "tessera"),
                            .product(name: "GRDB", package: "GRDB.swift"),
                        ],
                        plugins: [.plugin(name: "TesseraViewsPlugin", package: "tessera")]
                    ),
                    // The server: its settings, the database, the middleware.
                    .executableTarget(
                        name: "\#(name)Server",
                        dependencies: [
                            "\#(name)",
                            .product(name: "Tessera", package: "tessera"),
                            .product(name: "ArgumentParser", package: "swift-argument-parser"),
                            .product(name: "Logging", package: "swift-log"),
                            .product(name: "GRDB", package: "GRDB.swift"),
                        ]
                    ),
                    .testTarget(
                        name: "\#(name)Tests",
                        dependencies: [
                            "\#(name)",
                            .product(name: "Tessera", package: "tessera"),
                            .product(name: "TesseraTesting", package: "tessera"),
                            .product(name: "GRDB", package: "GRDB.swift"),
                        ]
                    ),
                ]
            )

            """#
    }

    var routeTable: String {
        let name = app.type
        return #"""
            public import GRDB
            public import Tessera

            /// The app's route table and its database: every feature module is registered here,
            /// and no module knows another. `tessera generate resource` adds its lines above the
            /// `tessera:` comments.
            public enum \#(name)App {
                /// Every module's tables, in the order they were added; the server runs them at start.
                public static var migrator: DatabaseMigrator {
                    var migrator = DatabaseMigrator()
                    // tessera:migrations
                    return migrator
                }

                /// Registers every feature module, with its services on `database`.
                public static func register(in app: inout ApplicationBuilder, database: any DatabaseWriter) {
                    app.register(HomeModule(greetings: GreetingService()))
                    // tessera:modules
                }
            }

            """#
    }

    var layout: String {
        let name = app.type
        return #"""
            public import Tessera
            import TesseraViews

            /// The app's layout: every page and error page goes through it, so no module knows it.
            public struct \#(name)Layout: PageLayout {
                public init() {}

                /// It shows nothing but the page and its language.
                public var freshness: PageFreshness { .unchanging }

                public func render(_ page: Page, in context: RequestContext) -> HTMLOutput {
                    context.render(LayoutView.self, LayoutContent(title: page.title, body: page.body, languageCode: context.language.code))
                }
            }

            """#
    }

    var layoutView: String {
        #"""
        {% model page: LayoutContent %}
        <!DOCTYPE html>
        <html lang="{{ page.languageCode }}">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>{{ page.title }}</title>
        <link rel="stylesheet" href="/css/app.css">
        </head>
        <body>
        <header><a href="{{ route HomeRoutes.home }}">\#(app.type)</a></header>
        <main>
        {{ page.body }}
        </main>
        </body>
        </html>

        """#
    }

    var stylesheet: String {
        """
        /* The app's styles: readable on a phone and a desktop alike. */
        body { margin: 0; font: 1rem/1.5 system-ui, sans-serif; color: #1a1a1a; background: #fff; }
        header, main { max-width: 40rem; margin: 0 auto; padding: 1rem; }
        header a { font-weight: bold; color: inherit; text-decoration: none; }
        label { display: block; margin-top: 1rem; }
        input:not([type="checkbox"]), textarea { display: block; box-sizing: border-box; width: 100%; padding: 0.4rem; font: inherit; }
        button { margin-top: 1rem; padding: 0.4rem 1rem; font: inherit; }
        .field-error { margin: 0.25rem 0 0; color: #b00020; }

        """
    }

    var homeRoutes: String {
        #"""
        public import Tessera

        /// The home page's routes, for links from anywhere.
        public enum HomeRoutes {
            /// `/`: the home page.
            public static let home = Route<NoParameters>("home", .get, "/")
            /// The home page's greeting region alone, at its own URL.
            public static let greeting = Route<NoParameters>("home.greeting", .get, "/greeting")
        }

        """#
    }

    var homeModule: String {
        #"""
        public import Tessera

        /// The home page: its one entry point, which the route table registers.
        public struct HomeModule: FeatureModule {
            let greetings: GreetingService

            public init(greetings: GreetingService) {
                self.greetings = greetings
            }

            public func register(in app: inout ApplicationBuilder) {
                let greetings = self.greetings
                app.routes.page(HomeRoutes.home) { _, _ in HomePageController(greetings: greetings) }
                app.routes.fragment(HomeRoutes.greeting) { _, _ in GreetingRegion(greetings: greetings) }
            }
        }

        """#
    }

    var homePageController: String {
        let name = app.type
        return #"""
            import Tessera
            import TesseraViews

            /// `/`: a container page; its greeting is a region with a child controller of its own.
            struct HomePageController: PageController {
                let greetings: GreetingService

                func load(_ context: RequestContext) async throws -> HomePage {
                    HomePage(title: "\#(name)")
                }

                func render(_ page: HomePage, in context: RequestContext) -> Page {
                    Page(title: page.title, body: context.render(HomeView.self, page))
                }

                func regions(for page: HomePage, in context: RequestContext) -> HomeView.Regions<Region> {
                    HomeView.Regions(greeting: Region(source: HomeRoutes.greeting.path, controller: GreetingRegion(greetings: greetings)))
                }
            }

            """#
    }

    var greetingRegion: String {
        #"""
        import Tessera
        import TesseraViews

        /// The greeting region: rendered with the page, and alone at `/greeting`.
        struct GreetingRegion: RegionController {
            let greetings: GreetingService

            func render(in context: RequestContext) async throws -> HTMLOutput {
                context.render(GreetingView.self, greetings.greeting())
            }
        }

        """#
    }

    var greetingService: String {
        #"""
        import Foundation

        /// The greeting's rule, a service's business: it depends on the hour.
        public struct GreetingService: Sendable {
            let hour: @Sendable () -> Int

            /// Greets by `hour` (0–23), the current one by default.
            public init(hour: @escaping @Sendable () -> Int = { Calendar.current.component(.hour, from: Date()) }) {
                self.hour = hour
            }

            /// The greeting for now.
            func greeting() -> Greeting {
                switch hour() {
                case 5..<12: Greeting(text: "Good morning")
                case 12..<18: Greeting(text: "Good afternoon")
                default: Greeting(text: "Good evening")
                }
            }
        }

        """#
    }

    var homeModels: String {
        #"""
        /// What the home page shows.
        struct HomePage: Sendable {
            var title: String
        }

        /// What the greeting region shows.
        struct Greeting: Sendable, Equatable {
            var text: String
        }

        """#
    }

    var homeView: String {
        #"""
        {% model page: HomePage %}
        <section data-view="Home">
          <h1>{{ page.title }}</h1>
          {% region "greeting" %}
          <ul class="features">
            <!-- tessera:links -->
          </ul>
        </section>

        """#
    }

    var greetingView: String {
        #"""
        {% model greeting: Greeting %}
        <p class="greeting">{{ greeting.text }}!</p>

        """#
    }

    var serverCommand: String {
        let name = app.type
        return #"""
            \#(imports(["ArgumentParser", "Foundation", "GRDB", "Logging", "Tessera", name]))

            /// The server: `make run`, or `swift run \#(name)Server --help` for its settings.
            @main
            struct \#(name)ServerCommand: AsyncParsableCommand {
                @OptionGroup var options: ServerOptions

                func run() async throws {
                    let settings = try options.resolve()
                    settings.bootstrapLogging()
                    let logger = Logger(label: "\#(app.snake)")
                    // SQLite in the data directory, in WAL mode; every module's migrations first.
                    let database = try DatabasePool(path: URL(fileURLWithPath: settings.dataDirectory).appendingPathComponent("\#(app.snake).sqlite").path)
                    try \#(name)App.migrator.migrate(database)

                    var app = ApplicationBuilder()
                    \#(name)App.register(in: &app, database: database)
                    app.serve(PublicFiles(root: settings.publicDirectory))
                    // Under `make dev` only: pages reload after each rebuild, and show a failed build's errors.
                    let development = DevelopmentReload.fromEnvironment()
                    if let development { app.register(development) }
                    let reload: [any Middleware] = development.map { [$0.middleware] } ?? []

                    let secrets = try SessionConfiguration.loadSecrets(dataDirectory: settings.dataDirectory)
                    let sessions = SessionConfiguration(secret: secrets[0], previousSecrets: Array(secrets.dropFirst()))
                    let application = try app.build(
                        layout: \#(name)Layout(),
                        middleware: reload + [SessionMiddleware(sessions), ErrorPageMiddleware()],
                        routeMiddleware: [CSRFMiddleware()],
                        logger: logger,
                        developmentMode: development != nil
                    )
                    try await ApplicationRunner.run(settings: settings, application: application, logger: logger)
                }
            }

            """#
    }

    var testApp: String {
        let name = app.type
        return #"""
            \#(imports(["Foundation", "GRDB", "Tessera", name]))

            /// The app as its server builds it (the route table, the session, the form check), on a
            /// new database in memory: each test starts empty.
            enum TestApp {
                static func make() throws -> Application {
                    let database = try DatabaseQueue()
                    try \#(name)App.migrator.migrate(database)
                    var app = ApplicationBuilder()
                    \#(name)App.register(in: &app, database: database)
                    let sessions = SessionConfiguration(secret: Data(repeating: 7, count: 32))
                    return try app.build(
                        layout: \#(name)Layout(), middleware: [SessionMiddleware(sessions), ErrorPageMiddleware()], routeMiddleware: [CSRFMiddleware()])
                }
            }

            """#
    }

    var homeTests: String {
        let name = app.type
        return #"""
            import Tessera
            import TesseraTesting
            import Testing

            @testable import \#(name)

            @Suite struct HomeTests {
                @Test func theHomePageShowsTheGreetingRegion() async throws {
                    try await TestApp.make().test(.inProcess) { client in
                        let page = try await client.send("/")
                        #expect(page.status == 200)
                        #expect(page.text.contains("<h1>\#(name)</h1>"))
                        #expect(page.text.contains(#"<link rel="stylesheet" href="/css/app.css">"#), "in the app's layout")
                        #expect(page.text.contains(#"data-region="greeting""#))
                        let region = try await client.send("/greeting")
                        #expect(region.status == 200)
                        #expect(region.text.contains(#"<p class="greeting">Good "#))
                    }
                }

                @Test(arguments: [(8, "Good morning"), (13, "Good afternoon"), (23, "Good evening"), (3, "Good evening")])
                func theGreetingFollowsTheHour(hour: Int, text: String) {
                    #expect(GreetingService(hour: { hour }).greeting() == Greeting(text: text))
                }
            }

            """#
    }

    var makefile: String {
        let name = app.type
        return """
            # make run: the app on http://localhost:8080, its database in ./data.
            # make test: the app's tests. make dev: rebuilds on each save and reloads the open page.
            # make image: the app's container image, from a release build made here.
            # Builds go through Tessera's scripts/swift.sh, which finds Tessera's libmicrohttpd.
            TESSERA ?= \(tessera.checkout)
            SWIFT = $(TESSERA)/scripts/swift.sh
            CONTAINER ?= $(shell command -v podman || command -v docker)

            .PHONY: deps run test dev image

            deps:
            \t@test -d $(TESSERA) || swift package resolve
            \t@$(TESSERA)/scripts/install-deps.sh build

            run: deps
            \t$(SWIFT) build --product \(name)Server
            \t.build/debug/\(name)Server

            test: deps
            \t$(SWIFT) build --build-tests
            \t$(SWIFT) test --skip-build

            dev: deps
            \t$(TESSERA)/scripts/dev.py --package-path . --product \(name)Server

            image: deps
            \t$(SWIFT) build -c release --product \(name)Server
            \t$(TESSERA)/scripts/stage-image.sh .build/release/\(name)Server .build/image
            \t$(CONTAINER) build -t \(app.snake) .

            """
    }

    var dockerfile: String {
        let name = app.type
        return #"""
            # The app's image: the release binary `make image` built and staged (.build/image: the
            # binary and the Swift runtime libraries it links), on a slim Debian, as a user that is
            # not root, with its data on a volume. `make image`, then
            # `docker run -p 8080:8080 \#(app.snake)`.
            FROM debian:bookworm-slim
            RUN apt-get update \
             && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends libsqlite3-0 \
             && rm -rf /var/lib/apt/lists/* \
             && useradd --system --uid 10001 --create-home app \
             && mkdir -p /app/data && chown app /app/data
            COPY .build/image/ /app/
            COPY Public/ /app/Public/
            USER app
            WORKDIR /app
            ENV HOST=0.0.0.0 PORT=8080 DATA_DIR=/app/data
            VOLUME /app/data
            EXPOSE 8080
            CMD ["/app/\#(name)Server"]

            """#
    }

    var readme: String {
        let name = app.type
        return #"""
            # \#(name)

            A [Tessera](https://github.com/tessera-swift/tessera) app.

            ```sh
            make run    # the app on http://localhost:8080
            make test   # its tests
            ```

            `make dev` runs it and rebuilds on every save, reloading the open page.

            - `Sources/\#(name)/\#(name)App.swift`: the route table and the migrations;
              `\#(name)Layout.swift` and `Views/\#(name)/layout.html`: the layout every page goes through.
            - `Sources/\#(name)/Home/`: the home page, a container with a region, and its service.
            - `Views/\#(name)/`: the typed views, one model each.
            - `Sources/\#(name)Server/`: the server's settings (`--help`), database and middleware.

            Add a feature with its pages, form, service, store and tests:

            ```sh
            swift run --package-path \#(tessera.checkout) tessera generate resource Book title:string pages:int
            ```

            """#
    }
}
