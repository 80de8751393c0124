import Foundation

/// The files of a resource (`Book title:string pages:int`) in an app `tessera new` made: its
/// model, form, routes, module, service, SQLite store with its migration, a controller per page,
/// a view per model, and tests; and the lines that wire it into the app's route table and home page.
struct ResourceTemplate {
    let app: SwiftName
    let resource: SwiftName
    let fields: [ResourceField]

    var files: GeneratedFiles {
        var files = GeneratedFiles()
        let (name, folder) = (resource.type, "Sources/\(app.type)/\(resource.pluralType)")
        files.add("\(folder)/\(name).swift", model)
        files.add("\(folder)/\(name)Form.swift", form)
        files.add("\(folder)/\(resource.pluralType)Routes.swift", routes)
        files.add("\(folder)/\(resource.pluralType)Module.swift", module)
        files.add("\(folder)/\(name)Service.swift", service)
        files.add("\(folder)/\(name)Store.swift", store)
        files.add("\(folder)/\(name)Pages.swift", pages)
        files.add("\(folder)/\(name)ListPageController.swift", listController)
        files.add("\(folder)/\(name)PageController.swift", showController)
        files.add("\(folder)/\(name)FormPageController.swift", formController)
        files.add("\(folder)/\(name)Actions.swift", actions)
        files.add("Views/\(app.type)/\(resource.snake)_list.html", listView)
        files.add("Views/\(app.type)/\(resource.snake)_page.html", showView)
        files.add("Views/\(app.type)/\(resource.snake)_form.html", formView)
        files.add("Tests/\(app.type)Tests/\(resource.pluralType)Tests.swift", tests)
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
    /// `reading_lists`: the table.
    var table: String { resource.pluralSnake }
    /// The field a row is named by in lists and titles: the first one-line text, if any.
    var titleField: ResourceField? { fields.first { $0.kind == .string } }
    /// Whether a form can be sent wrong (a field that must be given): a checkbox cannot.
    var hasRequiredField: Bool { fields.contains { $0.kind != .bool } }

    // MARK: Swift

    var model: String {
        let properties = fields.map { "    public var \($0.name): \($0.kind.swiftType)" }.joined(separator: "\n")
        return #"""
            import GRDB

            /// A \#(resource.words), as the `\#(table)` table keeps it.
            public struct \#(resource.type): Sendable, Equatable, Codable, FetchableRecord {
                public var id: Int
            \#(properties)
            }

            """#
    }

    var form: String {
        let properties = fields.map { "    var \($0.name): \($0.kind.swiftType)" }.joined(separator: "\n")
        let readings = fields.map { "        \($0.name) = \($0.reading)" }.joined(separator: "\n")
        let arguments = (["id: id"] + fields.map { "\($0.name): \($0.name)" }).joined(separator: ", ")
        return #"""
            import Tessera

            /// The \#(resource.words) form, read and checked: each wrong field gets its message.
            struct \#(resource.type)Form: FormModel {
            \#(properties)

                init(reading form: inout FormReader) {
            \#(readings)
                }

                /// The \#(resource.words) `id` with the form's values.
                func \#(resource.variable)(id: Int) -> \#(resource.type) {
                    \#(resource.type)(\#(arguments))
                }
            }

            """#
    }

    var routes: String {
        let plural = resource.pluralType, prefix = resource.pluralSnake
        return #"""
            public import Tessera

            /// The \#(self.plural)' routes, for links from anywhere.
            public enum \#(plural)Routes {
                /// `/\#(pathSegment)`: every \#(resource.words).
                public static let list = Route<NoParameters>("\#(prefix).list", .get, "/\#(pathSegment)")
                /// `/\#(pathSegment)/new`: the form for a new \#(resource.words).
                public static let new = Route<NoParameters>("\#(prefix).new", .get, "/\#(pathSegment)/new")
                /// Creates a \#(resource.words) from the form, or shows it again with its messages (422).
                public static let create = Route<NoParameters>("\#(prefix).create", .post, "/\#(pathSegment)")
                /// `/\#(pathSegment)/{id}`: one \#(resource.words), or a 404.
                public static let show = Route<Int>("\#(prefix).show", .get, "/\#(pathSegment)/{id}")
                /// `/\#(pathSegment)/{id}/edit`: the form, filled from the \#(resource.words).
                public static let edit = Route<Int>("\#(prefix).edit", .get, "/\#(pathSegment)/{id}/edit")
                /// Saves the form to the \#(resource.words), or shows it again with its messages (422).
                public static let update = Route<Int>("\#(prefix).update", .post, "/\#(pathSegment)/{id}")
            }

            """#
    }

    var module: String {
        let (type, plural, variable) = (resource.type, resource.pluralType, resource.pluralVariable)
        return #"""
            public import Tessera

            /// The \#(self.plural)' one entry point: their pages and forms, on their service.
            public struct \#(plural)Module: FeatureModule {
                let \#(variable): \#(type)Service

                public init(\#(variable): \#(type)Service) {
                    self.\#(variable) = \#(variable)
                }

                public func register(in app: inout ApplicationBuilder) {
                    let \#(variable) = self.\#(variable)
                    app.routes.page(\#(plural)Routes.list) { _, _ in \#(type)ListPageController(\#(variable): \#(variable)) }
                    app.routes.page(\#(plural)Routes.new) { _, _ in \#(type)FormPageController(\#(variable): \#(variable), editing: nil, form: nil) }
                    app.routes.page(\#(plural)Routes.show) { id, _ in \#(type)PageController(\#(variable): \#(variable), id: id) }
                    app.routes.page(\#(plural)Routes.edit) { id, _ in \#(type)FormPageController(\#(variable): \#(variable), editing: id, form: nil) }
                    \#(type)Actions(\#(variable): \#(variable)).register(in: &app.routes)
                }
            }

            """#
    }

    var service: String {
        let (type, variable) = (resource.type, resource.variable)
        return #"""
            public import Tessera

            /// The \#(plural)' rules: what the pages and forms may do with them.
            public struct \#(type)Service: Sendable {
                let store: any \#(type)Store

                public init(store: any \#(type)Store) {
                    self.store = store
                }

                /// Every \#(resource.words), oldest first.
                func all() async throws -> [\#(type)] {
                    try await store.all()
                }

                /// The \#(resource.words) `id`, or a 404 page.
                func \#(variable)(id: Int) async throws -> \#(type) {
                    guard let \#(variable) = try await store.\#(variable)(id: id) else { throw Self.notFound(id) }
                    return \#(variable)
                }

                /// A new \#(resource.words) with the form's values.
                func create(_ form: \#(type)Form) async throws -> \#(type) {
                    try await store.insert(form.\#(variable)(id: 0))
                }

                /// The \#(resource.words) `id` with the form's values, or a 404 page.
                func update(id: Int, with form: \#(type)Form) async throws -> \#(type) {
                    let \#(variable) = form.\#(variable)(id: id)
                    guard try await store.update(\#(variable)) else { throw Self.notFound(id) }
                    return \#(variable)
                }

                static func notFound(_ id: Int) -> HTTPError {
                    HTTPError(.notFound, message: "There is no \#(resource.words) \(id).")
                }
            }

            """#
    }

    var store: String {
        let (type, variable) = (resource.type, resource.variable)
        let columns = fields.map { "                table.column(\"\($0.name)\", \($0.kind.columnType)).notNull()" }.joined(separator: "\n")
        // Quoted: a field may be named like an SQL keyword (`order`, `group`).
        let names = fields.map { "\\\"\($0.name)\\\"" }.joined(separator: ", ")
        let placeholders = fields.map { _ in "?" }.joined(separator: ", ")
        let values = fields.map { "\(variable).\($0.name)" }.joined(separator: ", ")
        let assignments = fields.map { "\\\"\($0.name)\\\" = ?" }.joined(separator: ", ")
        return #"""
            public import GRDB

            /// Where \#(plural) are kept; the service sees only this protocol.
            public protocol \#(type)Store: Sendable {
                func all() async throws -> [\#(type)]
                func \#(variable)(id: Int) async throws -> \#(type)?
                /// Adds `\#(variable)` (its `id` is not used) and returns it with the id it got.
                func insert(_ \#(variable): \#(type)) async throws -> \#(type)
                /// Replaces the \#(resource.words) with `\#(variable).id`; `false` when there is none.
                func update(_ \#(variable): \#(type)) async throws -> Bool
            }

            /// \#(plural.capitalizedFirst) in the app's SQLite database, through GRDB.
            public struct SQLite\#(type)Store: \#(type)Store {
                let database: any DatabaseWriter

                /// \#(plural.capitalizedFirst) in `database`, after their migrations ran.
                public init(database: any DatabaseWriter) {
                    self.database = database
                }

                /// The `\#(table)` table, in the order its changes were added; the app's route table runs them.
                public static func registerMigrations(in migrator: inout DatabaseMigrator) {
                    migrator.registerMigration("\#(table).v1") { db in
                        try db.create(table: "\#(table)") { table in
                            table.autoIncrementedPrimaryKey("id")
            \#(columns)
                        }
                    }
                }

                public func all() async throws -> [\#(type)] {
                    try await database.read { db in try \#(type).fetchAll(db, sql: "SELECT * FROM \"\#(table)\" ORDER BY id") }
                }

                public func \#(variable)(id: Int) async throws -> \#(type)? {
                    try await database.read { db in try \#(type).fetchOne(db, sql: "SELECT * FROM \"\#(table)\" WHERE id = ?", arguments: [id]) }
                }

                public func insert(_ \#(variable): \#(type)) async throws -> \#(type) {
                    try await database.write { db in
                        try db.execute(
                            sql: "INSERT INTO \"\#(table)\" (\#(names)) VALUES (\#(placeholders))",
                            arguments: [\#(values)])
                        var inserted = \#(variable)
                        inserted.id = Int(db.lastInsertedRowID)
                        return inserted
                    }
                }

                public func update(_ \#(variable): \#(type)) async throws -> Bool {
                    try await database.write { db in
                        try db.execute(
                            sql: "UPDATE \"\#(table)\" SET \#(assignments) WHERE id = ?",
                            arguments: [\#(values), \#(variable).id])
                        return db.changesCount == 1
                    }
                }
            }

            """#
    }

    var pages: String {
        let (type, variable) = (resource.type, resource.variable)
        let label = titleField.map { "\(variable).\($0.name)" } ?? #""\#(resource.words.capitalizedFirst) \(\#(variable).id)""#
        let properties = fields.map { field in
            field.kind == .bool
                ? "    var \(field.name): Bool\n    var \(field.name)Error: String?"
                : "    var \(field.name): String\n    var \(field.name)Error: String?"
        }.joined(separator: "\n")
        let readings = fields.map { field in
            field.kind == .bool
                ? "        \(field.name) = state.value(\"\(field.name)\") == \"on\"\n        \(field.name)Error = state.error(\"\(field.name)\")"
                : "        \(field.name) = state.value(\"\(field.name)\")\n        \(field.name)Error = state.error(\"\(field.name)\")"
        }.joined(separator: "\n")
        let values = fields.map { field in
            switch field.kind {
            case .string, .text: "\"\(field.name)\": \(variable).\(field.name)"
            case .int: "\"\(field.name)\": String(\(variable).\(field.name))"
            case .bool: "\"\(field.name)\": \(variable).\(field.name) ? \"on\" : \"\""
            }
        }.map { "                \($0)," }.joined(separator: "\n")
        return #"""
            import Tessera

            /// What the list shows: a link per \#(resource.words).
            struct \#(type)List: Sendable {
                struct Row: Sendable {
                    var path: String
                    var label: String
                }

                var rows: [Row]
                var isEmpty: Bool { rows.isEmpty }

                init(_ \#(resource.pluralVariable): [\#(type)]) {
                    rows = \#(resource.pluralVariable).map { Row(path: \#(resource.pluralType)Routes.show.path($0.id), label: \#(type)Page.title(of: $0)) }
                }
            }

            /// What a \#(resource.words)'s page shows: the \#(resource.words), its title and the way to its form.
            struct \#(type)Page: Sendable {
                var \#(variable): \#(type)
                var title: String
                var editPath: String

                init(_ \#(variable): \#(type)) {
                    self.\#(variable) = \#(variable)
                    title = Self.title(of: \#(variable))
                    editPath = \#(resource.pluralType)Routes.edit.path(\#(variable).id)
                }

                static func title(of \#(variable): \#(type)) -> String {
                    \#(label)
                }
            }

            /// What the form shows: where it goes, each field's value as typed and its message.
            struct \#(type)FormPage: Sendable {
                var heading: String
                var action: String
                var button: String
                var back: String
            \#(properties)

                /// The form for a new \#(resource.words) (`editing` nil) or for the \#(resource.words) `editing`, with `state`'s values and messages.
                init(editing id: Int?, state: FormState) {
                    heading = id == nil ? "New \#(resource.words)" : "Edit \#(resource.words)"
                    action = id.map { \#(resource.pluralType)Routes.update.path($0) } ?? \#(resource.pluralType)Routes.create.path
                    button = id == nil ? "Create \#(resource.words)" : "Save \#(resource.words)"
                    back = id.map { \#(resource.pluralType)Routes.show.path($0) } ?? \#(resource.pluralType)Routes.list.path
            \#(readings)
                }

                /// The form filled from `\#(variable)`.
                init(editing \#(variable): \#(type)) {
                    self.init(
                        editing: \#(variable).id,
                        state: FormState(values: [
            \#(values)
                        ]))
                }
            }

            """#
    }

    var listController: String {
        let (type, variable) = (resource.type, resource.pluralVariable)
        return #"""
            import Tessera
            import TesseraViews

            /// `/\#(pathSegment)`: every \#(resource.words), with a link to each.
            struct \#(type)ListPageController: PageController {
                let \#(variable): \#(type)Service

                func load(_ context: RequestContext) async throws -> \#(type)List {
                    \#(type)List(try await \#(variable).all())
                }

                func render(_ list: \#(type)List, in context: RequestContext) -> Page {
                    Page(title: "\#(plural.capitalizedFirst)", body: context.render(\#(type)ListView.self, list))
                }
            }

            """#
    }

    var showController: String {
        let (type, variable) = (resource.type, resource.pluralVariable)
        return #"""
            import Tessera
            import TesseraViews

            /// `/\#(pathSegment)/{id}`: one \#(resource.words), or a 404.
            struct \#(type)PageController: PageController {
                let \#(variable): \#(type)Service
                let id: Int

                func load(_ context: RequestContext) async throws -> \#(type)Page {
                    \#(type)Page(try await \#(variable).\#(resource.variable)(id: id))
                }

                func render(_ page: \#(type)Page, in context: RequestContext) -> Page {
                    Page(title: page.title, body: context.render(\#(type)PageView.self, page))
                }
            }

            """#
    }

    var formController: String {
        let (type, variable) = (resource.type, resource.pluralVariable)
        return #"""
            import Tessera
            import TesseraViews

            /// `/\#(pathSegment)/new` and `/\#(pathSegment)/{id}/edit`: the form, empty, filled from the \#(resource.words),
            /// or sent back with its messages (422).
            struct \#(type)FormPageController: PageController {
                let \#(variable): \#(type)Service
                /// The \#(resource.words) being edited; `nil` for a new one.
                let editing: Int?
                /// A form sent back with its messages; `nil` for a form shown first.
                let form: FormState?

                func load(_ context: RequestContext) async throws -> \#(type)FormPage {
                    if let form { return \#(type)FormPage(editing: editing, state: form) }
                    guard let editing else { return \#(type)FormPage(editing: nil, state: FormState()) }
                    return \#(type)FormPage(editing: try await \#(variable).\#(resource.variable)(id: editing))
                }

                func render(_ page: \#(type)FormPage, in context: RequestContext) -> Page {
                    Page(
                        title: page.heading, body: context.render(\#(type)FormView.self, page),
                        status: form?.isValid == false ? .unprocessableContent : .ok)
                }
            }

            """#
    }

    var actions: String {
        let (type, variable, routes) = (resource.type, resource.pluralVariable, resource.pluralType + "Routes")
        return #"""
            import Tessera
            import TesseraViews

            /// The \#(resource.words) forms: each ends in a redirect to the \#(resource.words) (Post/Redirect/Get), or
            /// shows the form again with its messages (422).
            struct \#(type)Actions {
                let \#(variable): \#(type)Service

                func register(in routes: inout RouterBuilder) {
                    let \#(variable) = self.\#(variable)
                    routes.action(\#(routes).create) { _, context in
                        switch try context.decodeForm(\#(type)Form.self) {
                        case .invalid(let state):
                            return try await context.render(\#(type)FormPageController(\#(variable): \#(variable), editing: nil, form: state))
                        case .valid(let form):
                            let \#(resource.variable) = try await \#(variable).create(form)
                            return context.redirect(to: \#(routes).show.path(\#(resource.variable).id), flash: "\#(resource.words.capitalizedFirst) created.")
                        }
                    }
                    routes.action(\#(routes).update) { id, context in
                        switch try context.decodeForm(\#(type)Form.self) {
                        case .invalid(let state):
                            return try await context.render(\#(type)FormPageController(\#(variable): \#(variable), editing: id, form: state))
                        case .valid(let form):
                            let \#(resource.variable) = try await \#(variable).update(id: id, with: form)
                            return context.redirect(to: \#(routes).show.path(\#(resource.variable).id), flash: "\#(resource.words.capitalizedFirst) saved.")
                        }
                    }
                }
            }

            """#
    }

    // MARK: Views

    var listView: String {
        #"""
        {% model list: \#(resource.type)List %}
        <section data-view="\#(resource.type)List">
          <h1>\#(plural.capitalizedFirst)</h1>
          {% if list.isEmpty %}<p>No \#(plural) yet.</p>{% endif %}
          <ul>
            {% for row in list.rows %}
            <li><a href="{{ row.path }}">{{ row.label }}</a></li>
            {% endfor %}
          </ul>
          <p><a href="{{ route \#(resource.pluralType)Routes.new }}">New \#(resource.words)</a></p>
        </section>

        """#
    }

    var showView: String {
        let variable = "page.\(resource.variable)"
        let rows = fields.map { field in
            field.kind == .bool
                ? "    <dt>\(field.label)</dt><dd>{% if \(variable).\(field.name) %}Yes{% else %}No{% endif %}</dd>"
                : "    <dt>\(field.label)</dt><dd>{{ \(variable).\(field.name) }}</dd>"
        }.joined(separator: "\n")
        return #"""
            {% model page: \#(resource.type)Page %}
            <article data-view="\#(resource.type)Page" data-\#(resource.snake.replacingOccurrences(of: "_", with: "-"))-id="{{ \#(variable).id }}">
              <p class="breadcrumb"><a href="{{ route \#(resource.pluralType)Routes.list }}">All \#(plural)</a></p>
              <h1>{{ page.title }}</h1>
              <dl>
            \#(rows)
              </dl>
              <p><a href="{{ page.editPath }}">Edit this \#(resource.words)</a></p>
            </article>

            """#
    }

    var formView: String {
        let inputs = fields.map(formInput).joined(separator: "\n")
        return #"""
            {% model page: \#(resource.type)FormPage %}
            <section class="form-page" data-view="\#(resource.type)Form">
              <h1>{{ page.heading }}</h1>
              <form method="post" action="{{ page.action }}" novalidate>
            \#(inputs)
                <button type="submit">{{ page.button }}</button>
              </form>
              <p><a href="{{ page.back }}">Back</a></p>
            </section>

            """#
    }

    func formInput(_ field: ResourceField) -> String {
        let (name, label) = (field.name, field.label)
        let invalid = #"{% if let error = page.\#(name)Error %} aria-invalid="true" aria-describedby="\#(name)-error"{% endif %}"#
        let message =
            #"    {% if let error = page.\#(name)Error %}<p class="field-error" id="\#(name)-error" data-field="\#(name)">{{ error }}</p>{% endif %}"#
        switch field.kind {
        case .string:
            return #"""
                    <label for="\#(name)">\#(label)</label>
                    <input id="\#(name)" name="\#(name)" value="{{ page.\#(name) }}"\#(invalid) required maxlength="200">
                \#(message)
                """#
        case .text:
            return #"""
                    <label for="\#(name)">\#(label)</label>
                    <textarea id="\#(name)" name="\#(name)" rows="6"\#(invalid) required maxlength="10000">{{ page.\#(name) }}</textarea>
                \#(message)
                """#
        case .int:
            return #"""
                    <label for="\#(name)">\#(label)</label>
                    <input id="\#(name)" name="\#(name)" inputmode="numeric" value="{{ page.\#(name) }}"\#(invalid) required>
                \#(message)
                """#
        case .bool:
            return #"""
                    <p><input type="checkbox" id="\#(name)" name="\#(name)"{% if page.\#(name) %} checked=""{% endif %}> <label for="\#(name)">\#(label)</label></p>
                """#
        }
    }

    // MARK: Tests

    var tests: String {
        let base = "/\(pathSegment)"
        let filled = fields.map { "\($0.name)=\($0.sample.form)" }.joined(separator: "&")
        let changedFields = fields.compactMap { field -> String? in
            switch field.kind {
            case .string: "\(field.name)=Changed+\(field.name)"
            case .text: "\(field.name)=Changed+text"
            case .int: "\(field.name)=43"
            case .bool: nil
            }
        }.joined(separator: "&")
        let shown = fields.map { "            #expect(page.text.contains(\(swiftLiteral($0.sample.shown))), \"\($0.name)\")" }.joined(separator: "\n")
        let changedShown = fields.map { field in
            let text =
                switch field.kind {
                case .string: "Changed \(field.name)"
                case .text: "Changed text"
                case .int: "43"
                case .bool: "No"
                }
            return "            #expect(changed.text.contains(\(swiftLiteral(text))), \"\(field.name)\")"
        }.joined(separator: "\n")
        let mistakes =
            hasRequiredField
            ? #"""

                @Test func aFormWithMistakesComesBackWithItsMessagesAndSavesNothing() async throws {
                    try await TestApp.make().test(.inProcess) { client in
                        let reply = try await client.submit(from: "\#(base)/new", to: "\#(base)", form: "")
                        #expect(reply.status == 422)
                        #expect(reply.text.contains(#"aria-invalid="true""#))
                        #expect(reply.text.contains(#"class="field-error""#))
                        #expect(try await client.send("\#(base)").text.contains("No \#(plural) yet."))
                    }
                }

            """#
            : "\n"
        return #"""
            import Tessera
            import TesseraTesting
            import Testing

            @testable import \#(app.type)

            @Suite struct \#(resource.pluralType)Tests {
                static let filled = "\#(filled)"

                @Test func a\#(resource.type)IsCreatedShownListedAndEdited() async throws {
                    try await TestApp.make().test(.inProcess) { client in
                        let created = try await client.submit(from: "\#(base)/new", to: "\#(base)", form: Self.filled)
                        #expect(created.status == 303)
                        let path = try #require(created.header("location"))
                        let page = try await client.send(path)
                        #expect(page.status == 200)
            \#(shown)
                        let list = try await client.send("\#(base)")
                        #expect(list.text.contains("<a href=\"" + path + "\">"))
                        let saved = try await client.submit(from: path + "/edit", to: path, form: "\#(changedFields)")
                        #expect(saved.status == 303)
                        #expect(saved.header("location") == path)
                        let changed = try await client.send(path)
            \#(changedShown)
                    }
                }
            \#(mistakes)
                @Test func anUnknown\#(resource.type)IsANotFoundPage() async throws {
                    try await TestApp.make().test(.inProcess) { client in
                        #expect(try await client.send("\#(base)/999").status == 404)
                        #expect(try await client.send("\#(base)/999/edit").status == 404)
                        #expect(try await client.send("\#(base)/first").status == 404)
                        let update = try await client.submit(from: "\#(base)/new", to: "\#(base)/999", form: Self.filled)
                        #expect(update.status == 404)
                    }
                }
            }

            """#
    }

    func swiftLiteral(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}

extension String {
    /// `Books` for `books`.
    var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
