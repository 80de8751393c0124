import ArgumentParser
import Foundation
import TesseraTemplateCompiler

/// `tessera-views`: compiles one template, or a module's message catalogs, into Swift. The build
/// plugin runs it; errors are printed as `Views/Module/file.html:LINE:COL: error: …`, which fails
/// the build at the template (or the catalog).
@main
struct ViewCompilerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tessera-views",
        abstract: "Compile Tessera templates and message catalogs into typed Swift.",
        subcommands: [CompileTemplate.self, CompileMessages.self],
        defaultSubcommand: CompileTemplate.self
    )
}

/// The catalog files given to either command.
struct CatalogOptions: ParsableArguments {
    @Option(name: .customLong("catalog"), help: "A message catalog, locales/<language>.json; once per language.")
    var paths: [String] = []

    @Option(name: .customLong("catalog-display-folder"), help: "The catalogs' folder as errors show it, such as Views/Orders/locales.")
    var displayFolder: String = "locales"

    func load() throws(TemplateError) -> MessageCatalogs? {
        guard !paths.isEmpty else { return nil }
        return try MessageCatalogs(files: paths.map {
            (path: $0, displayPath: displayFolder + "/" + URL(fileURLWithPath: $0).lastPathComponent)
        })
    }
}

/// Reports a compile error the way compilers do, and fails.
private func reporting(_ body: () throws -> Void) throws {
    do {
        try body()
    } catch {
        FileHandle.standardError.write(Data("\(error)\n".utf8))
        throw ExitCode.failure
    }
}

struct CompileTemplate: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "template", abstract: "Compile a template into a typed Swift view.")

    @Argument(help: "The template file.")
    var input: String

    @Option(help: "Where to write the Swift source.")
    var output: String

    @Option(name: .customLong("display-path"), help: "The path to show in errors and #sourceLocation.")
    var displayPath: String

    @Option(name: .customLong("relative-path"), help: "The path under the module's views folder; it names the type.")
    var relativePath: String

    @OptionGroup var catalogs: CatalogOptions

    func run() throws {
        try reporting {
            let source = try String(contentsOfFile: input, encoding: .utf8)
            let swift = try TemplateCompiler.compile(source: source, path: displayPath, relativePath: relativePath, catalogs: try catalogs.load())
            try Data(swift.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
        }
    }
}

struct CompileMessages: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "messages", abstract: "Compile a module's message catalogs into its Messages enum.")

    @Option(help: "Where to write the Swift source.")
    var output: String

    @OptionGroup var catalogs: CatalogOptions

    func run() throws {
        try reporting {
            guard let loaded = try catalogs.load() else { throw ValidationError("give at least one --catalog") }
            for missing in loaded.missingTranslations {
                FileHandle.standardError.write(Data("\(missing.warningDescription)\n".utf8))
            }
            try Data(try MessagesGenerator.generate(loaded).utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
        }
    }
}
