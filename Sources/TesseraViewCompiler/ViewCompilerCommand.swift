import Foundation
import TesseraTemplateCompiler

/// `tessera-views`: compiles one template, or a module's message catalogs, into Swift. The build
/// plugin runs it; errors are printed as `Views/Module/file.html:LINE:COL: error: …`, which fails
/// the build at the template (or the catalog).
///
///     tessera-views template FILE --output SWIFT --display-path PATH --relative-path PATH [CATALOGS]
///     tessera-views messages --output SWIFT CATALOGS
///     tessera-views markup FILE --display-path PATH --relative-path PATH   (JSON: the shape and the static runs)
///     CATALOGS: --catalog locales/<language>.json … [--catalog-display-folder Views/Module/locales]
///
/// Only the plugin calls it, with arguments it writes itself, so the parsing is a few lines here:
/// ArgumentParser, built a second time for the host before any template can compile, sat on the
/// critical path of every first build of every app (decision 0029).
@main
enum ViewCompilerCommand {
    static func main() {
        do {
            var arguments = Arguments(Array(CommandLine.arguments.dropFirst()))
            switch arguments.next() {
            case "template": try compileTemplate(&arguments)
            case "messages": try compileMessages(&arguments)
            case "markup": try printMarkup(&arguments)
            default: throw UsageError("the first argument is `template`, `messages` or `markup`")
            }
        } catch {
            // A compiler's error line; the build fails at the file it names.
            FileHandle.standardError.write(Data("\(error)\n".utf8))
            exit(1)
        }
    }

    static func compileTemplate(_ arguments: inout Arguments) throws {
        let input = try arguments.positional("the template file")
        let options = try arguments.options(required: ["--output", "--display-path", "--relative-path"])
        let source = try String(contentsOfFile: input, encoding: .utf8)
        let swift = try TemplateCompiler.compile(
            source: source, path: options.value("--display-path"), relativePath: options.value("--relative-path"),
            catalogs: try options.catalogs())
        try Data(swift.utf8).write(to: URL(fileURLWithPath: options.value("--output")), options: .atomic)
    }

    /// For `make dev`: the template's code shape and static runs, as JSON on standard output.
    static func printMarkup(_ arguments: inout Arguments) throws {
        let input = try arguments.positional("the template file")
        let options = try arguments.options(required: ["--display-path", "--relative-path"])
        let markup = try TemplateCompiler.markup(
            source: try String(contentsOfFile: input, encoding: .utf8), path: options.value("--display-path"),
            relativePath: options.value("--relative-path"))
        let json = try JSONSerialization.data(withJSONObject: ["shape": markup.shape, "runs": markup.runs], options: [.sortedKeys])
        FileHandle.standardOutput.write(json)
    }

    static func compileMessages(_ arguments: inout Arguments) throws {
        let options = try arguments.options(required: ["--output"])
        guard let catalogs = try options.catalogs() else { throw UsageError("give at least one --catalog") }
        for missing in catalogs.missingTranslations {
            FileHandle.standardError.write(Data("\(missing.warningDescription)\n".utf8))
        }
        try Data(try MessagesGenerator.generate(catalogs).utf8).write(to: URL(fileURLWithPath: options.value("--output")), options: .atomic)
    }
}

/// The command line, read left to right.
struct Arguments {
    private var remaining: ArraySlice<String>

    init(_ arguments: [String]) { remaining = arguments[...] }

    mutating func next() -> String? { remaining.popFirst() }

    mutating func positional(_ what: String) throws -> String {
        guard let value = remaining.first, !value.hasPrefix("--") else { throw UsageError("missing \(what)") }
        return remaining.removeFirst()
    }

    /// The rest as `--name value` pairs; `--catalog` may repeat, every other option appears once.
    mutating func options(required: [String]) throws -> Options {
        var options = Options()
        while let name = next() {
            guard Options.known.contains(name) else { throw UsageError("unknown option \(name)") }
            guard let value = next() else { throw UsageError("\(name) needs a value") }
            if name == "--catalog" {
                options.catalogPaths.append(value)
            } else if options.values.updateValue(value, forKey: name) != nil {
                throw UsageError("\(name) is given twice")
            }
        }
        for name in required where options.values[name] == nil { throw UsageError("missing \(name)") }
        return options
    }
}

/// The options of either command.
struct Options {
    static let known: Set = ["--output", "--display-path", "--relative-path", "--catalog", "--catalog-display-folder"]
    var values: [String: String] = [:]
    /// Each `--catalog`: a message catalog, locales/<language>.json, one per language.
    var catalogPaths: [String] = []

    func value(_ name: String) -> String { values[name] ?? "" }

    /// The catalogs given, shown in errors under `--catalog-display-folder` (such as
    /// Views/Orders/locales); `nil` without any.
    func catalogs() throws(TemplateError) -> MessageCatalogs? {
        guard !catalogPaths.isEmpty else { return nil }
        let displayFolder = values["--catalog-display-folder"] ?? "locales"
        return try MessageCatalogs(
            files: catalogPaths.map {
                (path: $0, displayPath: displayFolder + "/" + URL(fileURLWithPath: $0).lastPathComponent)
            })
    }
}

/// Arguments the plugin would never write: a bug in the plugin, said plainly.
struct UsageError: Error, CustomStringConvertible {
    let description: String
    init(_ problem: String) { description = "tessera-views: \(problem)" }
}
