import Tessera
import TesseraSQLite
import TesseraViews

enum Text: HTMLView { static func render(_ model: String, into output: inout HTMLOutput) { output.text(model) } }
struct Prices: Sendable { func price(of id: Int) -> Int { id * 10 } }

/// What a shared region may use: the app's services, its parameters, the language, the logger.
struct Shared: SharedRegion {
    typealias View = Text
    let prices: Prices
    func keptUntil(_ id: Int) -> [Topic] { [] }
    func load(_ id: Int, in context: SharedRegionContext) async throws -> String {
        context.logger.debug("loading")
        return "\(prices.price(of: id)) in \(context.language.code)"
    }
}

let route = Route<Int>("price", .get, "/prices/{id}")

/// Made when the app is built; a page names it by route and parameters.
struct Module: FeatureModule {
    func register(in app: inout ApplicationBuilder) {
        app.routes.sharedRegion(route, Shared(prices: Prices()))
        app.routes.group(SignedIn()) { routes in
            routes.action(Route<NoParameters>("orders", .get, "/orders")) { _, _, name in .text("orders of \(name)") }
        }
    }
}
func region(in context: RequestContext) -> Region { Region(shared: route, 3, in: context) }

/// A group's handlers get what it guarantees, non-optional.
struct SignedIn: RouteGuarantee {
    func check(_ context: RequestContext, returningTo page: String) throws -> String {
        guard let name = context.session["user"] else { throw Redirect(to: "/login") }
        return name
    }
}

/// A region of the visitor's own reads all of it.
struct Yours: RegionController {
    func render(in context: RequestContext) async throws -> HTMLOutput {
        var output = HTMLOutput(capacity: 64, language: context.language)
        output.text(context.session["user"] ?? context.request.cookies["visitor"] ?? "")
        return output
    }
}

/// What a kept page may use: its services, its parameters, the URL's query, the language, the
/// site, the logger, and the regions others provide.
struct Kept: KeptPage {
    let prices: Prices
    let id: Int
    var keptUntil: [Topic] { [] }
    func load(_ context: KeptPageContext) async throws -> String {
        context.logger.debug("loading")
        return "\(prices.price(of: id)) in \(context.language.code), sorted by \(context.query["sort"] ?? "name") on \(context.site)"
    }
    func render(_ model: String, in context: KeptPageContext) -> Page { Page(title: model, body: context.render(Text.self, model)) }
}
func registerKept(in routes: inout RouterBuilder) { routes.keptPage(Route<Int>("kept", .get, "/kept/{id}")) { id in Kept(prices: Prices(), id: id) } }

/// A task the handler detaches takes its request's database budget along.
struct Catalog: Sendable {
    let database: any SQLiteDatabase

    func refresh(in context: RequestContext) {
        Task.detached { [budget = context.databaseBudget] in
            _ = try await database.read(within: budget) { _ in 1 }
        }
    }
}
