import Foundation
import PackagePlugin

/// Compiles a target's templates into typed Swift views, and its message catalogs into its
/// `Messages` enum, on every `swift build`.
///
/// Templates are found in `Views/<TargetName>/` at the package root (the layout users see), and in a
/// `Views/` folder inside the target's own directory (handy for tests and examples). Each template
/// is its own build command with one template in and one Swift file out, so editing a template
/// recompiles that view only. Catalogs are `locales/<language>.json` in the same folders; they are
/// inputs of every template command too, because a template's `t "key"` is checked against
/// them, so a key that a language lacks fails the build at the template's line.
@main
struct TesseraViewsPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let tool = try context.tool(named: "TesseraViewCompiler")
        let packageRoot = context.package.directoryURL
        let folders = [
            packageRoot.appending(path: "Views").appending(path: target.name),
            target.directoryURL.appending(path: "Views"),
        ]
        func display(_ url: URL) -> String {
            url.path.hasPrefix(packageRoot.path + "/") ? String(url.path.dropFirst(packageRoot.path.count + 1)) : url.path
        }
        var commands: [Command] = []
        for folder in folders {
            let locales = folder.appending(path: "locales")
            let catalogs = Self.files(in: locales, extensions: ["json"])
            let catalogArguments = catalogs.flatMap { ["--catalog", $0.path] } + ["--catalog-display-folder", display(locales)]
            if !catalogs.isEmpty {
                let output = context.pluginWorkDirectoryURL.appending(path: "Messages.swift")
                commands.append(
                    .buildCommand(
                        displayName: "Compiling messages \(display(locales))",
                        executable: tool.url,
                        arguments: ["messages", "--output", output.path] + catalogArguments,
                        inputFiles: catalogs,
                        outputFiles: [output]
                    ))
            }
            for template in Self.files(in: folder, extensions: ["html", "txt"]) {
                let relative = String(template.path.dropFirst(folder.path.count + 1))
                let output = context.pluginWorkDirectoryURL
                    .appending(path: relative.replacingOccurrences(of: "/", with: "_") + ".swift")
                commands.append(
                    .buildCommand(
                        displayName: "Compiling view \(display(template))",
                        executable: tool.url,
                        arguments: [
                            "template", template.path, "--output", output.path, "--display-path", display(template), "--relative-path", relative,
                        ]
                            + (catalogs.isEmpty ? [] : catalogArguments),
                        inputFiles: [template] + catalogs,
                        outputFiles: [output]
                    ))
            }
        }
        return commands
    }

    static func files(in folder: URL, extensions: Set<String>) -> [URL] {
        guard let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else { return [] }
        return enumerator.compactMap { $0 as? URL }
            .filter { extensions.contains($0.pathExtension) }
            .map(\.standardizedFileURL)
            .sorted { $0.path < $1.path }
    }
}
