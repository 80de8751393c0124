import Foundation
import PackagePlugin

/// Compiles a target's templates into typed Swift views on every `swift build`.
///
/// Templates are found in `Views/<TargetName>/` at the package root (the layout users see), and in a
/// `Views/` folder inside the target's own directory (handy for tests and examples). Each template
/// is its own build command with one input and one output, so editing a template recompiles that
/// view only.
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
        var commands: [Command] = []
        for folder in folders {
            for template in Self.templates(in: folder) {
                let relative = String(template.path.dropFirst(folder.path.count + 1))
                let display = template.path.hasPrefix(packageRoot.path + "/")
                    ? String(template.path.dropFirst(packageRoot.path.count + 1)) : template.path
                let output = context.pluginWorkDirectoryURL
                    .appending(path: relative.replacingOccurrences(of: "/", with: "_") + ".swift")
                commands.append(.buildCommand(
                    displayName: "Compiling view \(display)",
                    executable: tool.url,
                    arguments: [template.path, "--output", output.path, "--display-path", display, "--relative-path", relative],
                    inputFiles: [template],
                    outputFiles: [output]
                ))
            }
        }
        return commands
    }

    static func templates(in folder: URL) -> [URL] {
        guard let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else { return [] }
        return enumerator.compactMap { $0 as? URL }
            .filter { ["html", "txt"].contains($0.pathExtension) }
            .map(\.standardizedFileURL)
            .sorted { $0.path < $1.path }
    }
}
