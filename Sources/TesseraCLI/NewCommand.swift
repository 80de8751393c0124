import ArgumentParser
import Foundation

/// `tessera new NAME`: a new app in the folder `NAME`, whose package depends on Tessera, by path
/// or by version. Nothing is written when the name is not a Swift type name, the folder exists,
/// or no dependency is given and the working directory is not a Tessera checkout.
///
/// The default path is the working directory, as `swift run tessera new …` in Tessera's
/// repository has it; never the path the binary was built from, which a binary copied to another
/// machine (or built in a container) does not have.
struct NewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "new",
        abstract: "Makes a new app: a package with a home page, a test, make run, test and dev, and a Dockerfile."
    )

    @Argument(help: "The app's name, a Swift type name such as Shelf; also its folder's and its modules'.")
    var name: String

    @Option(help: "The folder the app's folder is made in.")
    var directory: String = "."

    @Option(
        help:
            "Depend on the Tessera checkout at this path, relative to the app's folder or absolute. (default: the working directory, when it is a Tessera checkout)"
    )
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
        let dependency: AppTemplate.TesseraDependency
        if let tesseraVersion, let tesseraURL {
            dependency = .version(url: tesseraURL, from: tesseraVersion)
        } else if let path = tesseraPath ?? Self.checkoutInWorkingDirectory() {
            dependency = .path(path)
        } else {
            throw Refusal(
                "\(FileManager.default.currentDirectoryPath) is not a Tessera checkout: give --tessera-path, or --tessera-version with --tessera-url. Nothing was written."
            )
        }
        try AppTemplate(app: app, tessera: dependency).files.write(into: folder)
        print("Made \(folder.path). Next: cd \(folder.path) && make run (then make test, make dev).")
    }

    /// The working directory, when its `Package.swift` is Tessera's.
    static func checkoutInWorkingDirectory() -> String? {
        let directory = FileManager.default.currentDirectoryPath
        guard let manifest = FileManager.default.contents(atPath: directory + "/Package.swift").map({ String(decoding: $0, as: UTF8.self) }),
            manifest.contains(#"name: "Tessera""#), manifest.contains(#".executable(name: "tessera""#)
        else { return nil }
        return directory
    }
}
