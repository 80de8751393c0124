import ArgumentParser
import Foundation
import TesseraTemplateCompiler

/// `tessera-views`: compiles one template into Swift. The build plugin runs it; errors are printed
/// as `Views/Module/file.html:LINE:COL: error: …`, which fails the build at the template.
@main
struct ViewCompilerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tessera-views",
        abstract: "Compile a Tessera HTML template into a typed Swift view."
    )

    @Argument(help: "The template file.")
    var input: String

    @Option(help: "Where to write the Swift source.")
    var output: String

    @Option(name: .customLong("display-path"), help: "The path to show in errors and #sourceLocation.")
    var displayPath: String

    @Option(name: .customLong("relative-path"), help: "The path under the module's views folder; it names the type.")
    var relativePath: String

    func run() throws {
        let source = try String(contentsOfFile: input, encoding: .utf8)
        do {
            let swift = try TemplateCompiler.compile(source: source, path: displayPath, relativePath: relativePath)
            try Data(swift.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
        } catch {
            FileHandle.standardError.write(Data("\(error)\n".utf8))
            throw ExitCode.failure
        }
    }
}
