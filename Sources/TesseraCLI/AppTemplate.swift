import TesseraViews

/// The files of a new app: a package with a library of feature modules (the home page to
/// start with) and its layout, its server, its tests, a Makefile, a Dockerfile and a README. `AppName` is the
/// library, `AppNameServer` the server, `AppNameTests` the tests; `AppNameApp` is the route
/// table, which `tessera generate resource` adds to at its `tessera:` lines.
///
/// Each file is a text template in `Views/TesseraCLI/app/`, compiled with the app's own views
/// into a typed view of this model: a file reads as the file it makes, and a name it uses that
/// the model lacks fails the build.
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
        files.add("Package.swift", AppPackageManifestTextView.render(self))
        files.add("Sources/\(name)/\(name)App.swift", AppRouteTableTextView.render(self))
        files.add("Sources/\(name)/\(name)Layout.swift", AppLayoutTextView.render(self))
        files.add("Views/\(name)/layout.html", AppLayoutViewTextView.render(self))
        files.add("Public/css/app.css", AppStylesheetTextView.render(self))
        files.add("Sources/\(name)/Home/HomeRoutes.swift", AppHomeRoutesTextView.render(self))
        files.add("Sources/\(name)/Home/HomeModule.swift", AppHomeModuleTextView.render(self))
        files.add("Sources/\(name)/Home/HomePageController.swift", AppHomePageControllerTextView.render(self))
        files.add("Sources/\(name)/Home/GreetingRegion.swift", AppGreetingRegionTextView.render(self))
        files.add("Sources/\(name)/Home/GreetingService.swift", AppGreetingServiceTextView.render(self))
        files.add("Sources/\(name)/Home/HomeModels.swift", AppHomeModelsTextView.render(self))
        files.add("Views/\(name)/home.html", AppHomeViewTextView.render(self))
        files.add("Views/\(name)/greeting.html", AppGreetingViewTextView.render(self))
        files.add("Sources/\(name)Server/\(name)ServerCommand.swift", AppServerCommandTextView.render(self))
        files.add("Tests/\(name)Tests/TestApp.swift", AppTestAppTextView.render(self))
        files.add("Tests/\(name)Tests/HomeTests.swift", AppHomeTestsTextView.render(self))
        files.add("Makefile", AppMakefileTextView.render(self))
        files.add("Dockerfile", AppDockerfileTextView.render(self))
        files.add(".dockerignore", AppDockerignoreTextView.render(self))
        files.add(".gitignore", AppGitignoreTextView.render(self))
        files.add("README.md", AppReadmeTextView.render(self))
        return files
    }

    // MARK: What the templates read

    /// `Shelf`: the package, its library and the prefix of its other targets and types.
    var type: String { app.type }
    /// `shelf`: the logger's label, the database file and the image.
    var snake: String { app.snake }
    /// The `Package.swift` line that brings Tessera in.
    var tesseraPackageLine: String { tessera.packageLine }
    /// Where `make dev` finds Tessera's scripts.
    var tesseraCheckout: String { tessera.checkout }
    /// The server's imports, in the order swift-format keeps them.
    var serverImports: [String] { (["ArgumentParser", "Foundation", "GRDB", "Logging", "Tessera", "TesseraSQLite"] + [type]).sorted() }
    /// The test support's imports, in the order swift-format keeps them.
    var testImports: [String] { (["Foundation", "GRDB", "Tessera", "TesseraSQLite"] + [type]).sorted() }
}
