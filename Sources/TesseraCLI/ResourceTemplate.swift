import Foundation
import TesseraViews

/// The files of a resource (`Book title:string pages:int`) in an app `tessera new` made: its
/// model, form, routes, module, service, SQLite store with its migration, a controller per page,
/// a view per model, and tests; and the lines that wire it into the app's route table and home page.
///
/// Each file is a text template in `Views/TesseraCLI/resource/`, a typed view of this model; the
/// model holds the names and the few pieces of Swift and SQL that depend on the fields.
struct ResourceTemplate {
    let app: SwiftName
    let resource: SwiftName
    let resourceFields: [ResourceField]

    var files: GeneratedFiles {
        var files = GeneratedFiles()
        let (name, folder) = (resource.type, "Sources/\(app.type)/\(resource.pluralType)")
        files.add("\(folder)/\(name).swift", ResourceModelTextView.render(self))
        files.add("\(folder)/\(name)Form.swift", ResourceFormTextView.render(self))
        files.add("\(folder)/\(resource.pluralType)Routes.swift", ResourceRoutesTextView.render(self))
        files.add("\(folder)/\(resource.pluralType)Module.swift", ResourceModuleTextView.render(self))
        files.add("\(folder)/\(name)Service.swift", ResourceServiceTextView.render(self))
        files.add("\(folder)/\(name)Store.swift", ResourceStoreTextView.render(self))
        files.add("\(folder)/\(name)Pages.swift", ResourcePagesTextView.render(self))
        files.add("\(folder)/\(name)ListPageController.swift", ResourceListControllerTextView.render(self))
        files.add("\(folder)/\(name)PageController.swift", ResourceShowControllerTextView.render(self))
        files.add("\(folder)/\(name)FormPageController.swift", ResourceFormControllerTextView.render(self))
        files.add("\(folder)/\(name)Actions.swift", ResourceActionsTextView.render(self))
        files.add("Views/\(app.type)/\(resource.snake)_list.html", ResourceListViewTextView.render(self))
        files.add("Views/\(app.type)/\(resource.snake)_page.html", ResourceShowViewTextView.render(self))
        files.add("Views/\(app.type)/\(resource.snake)_form.html", ResourceFormViewTextView.render(self))
        files.add("Tests/\(app.type)Tests/\(resource.pluralType)Tests.swift", ResourceTestsTextView.render(self))
        let table = "Sources/\(app.type)/\(app.type)App.swift"
        files.insert("SQLite\(name)Store.registerMigrations(in: &migrator)", before: "// tessera:migrations", in: table)
        files.insert(
            "app.register(\(resource.pluralType)Module(\(resource.pluralVariable): \(name)Service(store: SQLite\(name)Store(database: database))))",
            before: "// tessera:modules", in: table)
        files.insert(
            #"<li><a href="{{ route \#(resource.pluralType)Routes.list }}">\#(plural.capitalizedFirst)</a></li>"#, before: "<!-- tessera:links -->",
            in: "Views/\(app.type)/home.html")
        return files
    }

    // MARK: Names

    /// Every type the resource declares, views included: none may exist in the app already.
    var typeNames: [String] {
        let (type, plural) = (resource.type, resource.pluralType)
        return [
            type, "\(type)Form", "\(plural)Routes", "\(plural)Module", "\(type)Service", "\(type)Store", "SQLite\(type)Store", "\(type)List",
            "\(type)Page", "\(type)FormPage", "\(type)ListPageController", "\(type)PageController", "\(type)FormPageController",
            "\(type)Actions", "\(type)ListView", "\(type)PageView", "\(type)FormView",
        ]
    }

    /// `books`, `reading lists`: what pages call them.
    var plural: String { SwiftName.snake(resource.pluralType).replacingOccurrences(of: "_", with: " ") }
    /// `reading-lists`: the URL's segment.
    var pathSegment: String { resource.pluralSnake.replacingOccurrences(of: "_", with: "-") }
    /// The field a row is named by in lists and titles: the first one-line text, if any.
    var titleField: ResourceField? { resourceFields.first { $0.kind == .string } }
    /// Whether a form can be sent wrong (a field that must be given): a checkbox cannot.
    var hasRequiredField: Bool { resourceFields.contains { $0.kind != .bool } }

    // MARK: What the templates read

    /// The app's library, which the tests import.
    var appType: String { app.type }
    var type: String { resource.type }
    var pluralType: String { resource.pluralType }
    var variable: String { resource.variable }
    var pluralVariable: String { resource.pluralVariable }
    var snake: String { resource.snake }
    /// `reading_lists`: the table, and the prefix of the route names.
    var pluralSnake: String { resource.pluralSnake }
    /// `reading list`: what sentences call one.
    var words: String { resource.words }
    var wordsCapitalized: String { resource.words.capitalizedFirst }
    var pluralCapitalized: String { plural.capitalizedFirst }
    /// `reading-list`: the page's `data-reading-list-id` attribute.
    var idAttribute: String { resource.snake.replacingOccurrences(of: "_", with: "-") }

    /// The fields, each with what its lines need.
    var fields: [Field] { resourceFields.map { Field(field: $0, variable: resource.variable) } }

    /// `id: id, title: title, …`: the model's memberwise initializer, from the form.
    var memberwiseArguments: String { (["id: id"] + resourceFields.map { "\($0.name): \($0.name)" }).joined(separator: ", ") }
    /// The columns, quoted inside a Swift string: a field may be named like an SQL keyword
    /// (`order`, `group`).
    var quotedColumns: String { resourceFields.map { "\\\"\($0.name)\\\"" }.joined(separator: ", ") }
    var placeholders: String { resourceFields.map { _ in "?" }.joined(separator: ", ") }
    /// The model's values, in the columns' order.
    var values: String { resourceFields.map { "\(resource.variable).\($0.name)" }.joined(separator: ", ") }
    /// `\"title\" = ?, …`: an update's assignments, quoted as ``quotedColumns``.
    var assignments: String { resourceFields.map { "\\\"\($0.name)\\\" = ?" }.joined(separator: ", ") }
    /// How a page names one: its title field, or its kind and id.
    var titleExpression: String {
        titleField.map { "\(resource.variable).\($0.name)" } ?? #""\#(resource.words.capitalizedFirst) \(\#(resource.variable).id)""#
    }
    /// What the generated tests send to create one, URL-encoded.
    var filledForm: String { resourceFields.map { "\($0.name)=\($0.sample.form)" }.joined(separator: "&") }
    /// What they send to change it: every field but the checkboxes, which sending nothing clears.
    var changedForm: String {
        resourceFields.compactMap { field -> String? in
            switch field.kind {
            case .string: "\(field.name)=Changed+\(field.name)"
            case .text: "\(field.name)=Changed+text"
            case .int: "\(field.name)=43"
            case .bool: nil
            }
        }.joined(separator: "&")
    }

    /// One field as the templates read it.
    struct Field {
        let field: ResourceField
        /// The resource's variable, `readingList`.
        let variable: String

        var name: String { field.name }
        var label: String { field.label }
        var swiftType: String { field.kind.swiftType }
        var columnType: String { field.kind.columnType }
        var reading: String { field.reading }
        var isBool: Bool { field.kind == .bool }
        var isString: Bool { field.kind == .string }
        var isText: Bool { field.kind == .text }
        var isInt: Bool { field.kind == .int }

        /// Its value as the form shows it, from the model.
        var formStateValue: String {
            switch field.kind {
            case .string, .text: "\(variable).\(name)"
            case .int: "String(\(variable).\(name))"
            case .bool: #"\#(variable).\#(name) ? "on" : """#
            }
        }

        /// The text its sample shows as, as a Swift literal.
        var sampleShownLiteral: String { Self.swiftLiteral(field.sample.shown) }

        /// The text it shows once the tests changed it, as a Swift literal.
        var changedShownLiteral: String {
            let text =
                switch field.kind {
                case .string: "Changed \(name)"
                case .text: "Changed text"
                case .int: "43"
                case .bool: "No"
                }
            return Self.swiftLiteral(text)
        }

        static func swiftLiteral(_ text: String) -> String {
            "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        }
    }
}

extension String {
    /// `Books` for `books`.
    var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
