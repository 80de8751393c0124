import ArgumentParser
import Foundation

/// `tessera generate resource NAME field:type …`: a feature module in the app of the current
/// folder, wired into its route table. Nothing is written when a field is malformed, the
/// resource exists, or the folder is not an app `tessera new` made.
struct ResourceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "resource",
        abstract: "Adds a resource: list, show, new, create, edit and update pages, its form, service, SQLite store and tests.",
        discussion:
            "Field types: \(ResourceField.Kind.allCases.map(\.rawValue).joined(separator: ", ")). Example: tessera generate resource Book title:string pages:int"
    )

    @Argument(help: "The resource's name, singular, a Swift type name such as Book.")
    var name: String

    @Argument(help: "Its fields, as name:type.")
    var fields: [String] = []

    @Option(help: "The app's folder.")
    var directory: String = "."

    func run() throws {
        let resource = try SwiftName(name, what: "The resource's name")
        let fields = try self.fields.map(ResourceField.init)
        guard !fields.isEmpty else { throw Refusal("Give the resource at least one field, such as title:string.") }
        if let twice = Dictionary(grouping: fields, by: \.name).first(where: { $0.value.count > 1 }) {
            throw Refusal("The field \(twice.key) is given twice.")
        }
        let root = URL(fileURLWithPath: directory)
        let app = try Self.appName(in: root)
        guard resource.type != app.type, resource.pluralType != app.type else {
            throw Refusal("The resource \(resource.type) would share the app's name; choose another.")
        }
        let template = ResourceTemplate(app: app, resource: resource, resourceFields: fields)
        let declared = Self.declaredTypes(in: root, app: app)
        let clashes = template.typeNames.filter(declared.contains)
        guard clashes.isEmpty else {
            throw Refusal("The app declares \(clashes.joined(separator: ", ")) already: choose another name. Nothing was written.")
        }
        try template.files.write(into: root)
        print("Added \(resource.pluralType) at /\(resource.pluralSnake): Sources/\(app.type)/\(resource.pluralType)/, its views and tests.")
    }

    /// The types the app's library declares, and its views' types (`recipe_list.html` is `RecipeListView`).
    static func declaredTypes(in root: URL, app: SwiftName) -> Set<String> {
        var names: Set<String> = []
        let manager = FileManager.default
        let declaration = /(?:struct|enum|class|protocol|actor|typealias)\s+([A-Za-z_][A-Za-z0-9_]*)/
        let sources = root.appendingPathComponent("Sources/\(app.type)")
        for case let file as URL in manager.enumerator(at: sources, includingPropertiesForKeys: nil) ?? .init() where file.pathExtension == "swift" {
            let text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
            for match in text.matches(of: declaration) { names.insert(String(match.1)) }
        }
        let views = root.appendingPathComponent("Views/\(app.type)")
        for case let file as URL in manager.enumerator(at: views, includingPropertiesForKeys: nil) ?? .init()
        where ["html", "txt"].contains(file.pathExtension) {
            let stem = file.deletingPathExtension().lastPathComponent
            names.insert(stem.split(separator: "_").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined() + "View")
        }
        return names
    }

    /// The app's name, from the one route table `tessera new` made (`Sources/NAME/NAMEApp.swift`).
    static func appName(in root: URL) throws -> SwiftName {
        let sources = root.appendingPathComponent("Sources")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: sources.path)) ?? []
        let apps = names.filter { FileManager.default.fileExists(atPath: sources.appendingPathComponent("\($0)/\($0)App.swift").path) }
        guard apps.count == 1, let app = apps.first else {
            throw Refusal("\(root.path) is not the folder of an app `tessera new` made (no Sources/NAME/NAMEApp.swift): nothing was written.")
        }
        return try SwiftName(app, what: "The app's name")
    }
}
