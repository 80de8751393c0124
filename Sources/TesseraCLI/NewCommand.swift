import ArgumentParser
import Foundation

/// `tessera new NAME`: a new app in the folder `NAME`, whose package depends on Tessera, by path
/// (this checkout, by default) or by version. Nothing is written when the name is not a Swift
/// type name or the folder exists.
struct NewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "new",
        abstract: "Makes a new app: a package with a home page, a test, make run, test and dev, and a Dockerfile."
    )

    @Argument(help: "The app's name, a Swift type name such as Shelf; also its folder's and its modules'.")
    var name: String

    @Option(help: "The folder the app's folder is made in.")
    var directory: String = "."

    @Option(help: "Depend on the Tessera checkout at this path, relative to the app's folder or absolute. (default: this checkout)")
    var tesseraPath: String?

    @Option(help: "Depend on Tessera from its Git URL, at this version or later (with --tessera-url).")
    var tesseraVersion: String?

    @Option(help: "Tessera's Git URL, for --tessera-version.")
    var tesseraURL: String?

    func validate() throws {
        if tesseraPath != nil, tesseraVersion != nil { throw ValidationError("Give --tessera-path or --tessera-version, not both.") }
        if (tesseraVersion == nil) != (tesseraURL == nil) { throw ValidationError("--tessera-version and --tessera-url go together.") }
    }

    func run() throws {
        let app = try SwiftName(name, what: "The app's name")
        let folder = URL(fileURLWithPath: directory).appendingPathComponent(app.type)
        guard !FileManager.default.fileExists(atPath: folder.path) else {
            throw Refusal("\(folder.path) exists already: nothing was written.")
        }
        let dependency: AppTemplate.TesseraDependency =
            if let tesseraVersion, let tesseraURL { .version(url: tesseraURL, from: tesseraVersion) } else {
                .path(tesseraPath ?? Self.thisCheckout)
            }
        try AppTemplate(app: app, tessera: dependency).files.write(into: folder)
        print("Made \(folder.path). Next: cd \(folder.path) && make run (then make test, make dev).")
    }

    /// The checkout this command was built from: two folders up from this file's.
    static var thisCheckout: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    }
}
