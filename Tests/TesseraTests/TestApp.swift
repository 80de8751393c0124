import Foundation
import Tessera
import TesseraHTTP
import TesseraViews

/// A small app exercising routing and regions the way the storefront's modules do.
struct RegionPageModel: Sendable, JSONPageModel {
    var heading: String
    /// For the page's views only: no JSON client sees it.
    var internalNote = "restock on Fridays"

    struct JSON: Encodable {
        let heading: String
    }

    var json: JSON { JSON(heading: heading) }
}

enum ShopRoutes {
    static let page = Route<Int>("shop.page", .get, "/pages/{id}")
    static let fast = Route<Int>("shop.page.fast", .get, "/pages/{id}/fast")
    static let slow = Route<Int>("shop.page.slow", .get, "/pages/{id}/slow")
    static let item = Route<UUID>("shop.item", .get, "/items/{id}")
    static let named = Route<String>("shop.named", .get, "/named/{name}")
    static let create = Route<NoParameters>("shop.create", .post, "/pages")
    static let list = Route<NoParameters>("shop.list", .get, "/pages")
    static let boom = Route<NoParameters>("shop.boom", .get, "/boom")
    static let order = Route<Int>("shop.order", .get, "/orders/{id}")
    static let formRegion = Route<NoParameters>("shop.form-region", .get, "/form-region")
}

/// A region whose child renders a form, like the storefront's add-to-cart region.
struct FormRegion: RegionController {
    /// A ``RegionGates`` gate it waits at, when the test holds it until the page's head is out.
    var gate: String?

    func render(in context: RequestContext) async throws -> HTMLOutput {
        // Rendered after a real suspension, on another task.
        if let gate { await RegionGates.shared.wait(for: gate) } else { try await Task.sleep(for: .milliseconds(10)) }
        return context.render(RegionFormView.self, "Add to cart")
    }
}

struct FormRegionPage: PageController {
    func load(_ context: RequestContext) async throws -> String { "Form region" }

    func render(_ title: String, in context: RequestContext) -> Page {
        Page(title: title, body: context.render(FormPageView.self, title), delivery: context.request.query["streamed"] == nil ? .buffered : .streamed)
    }

    func regions(for title: String, in context: RequestContext) -> FormPageView.Regions<Region> {
        FormPageView.Regions(form: Region(source: nil, controller: FormRegion(gate: context.request.query["gate"])))
    }
}

/// The key the shop module declares; another module may provide it.
enum ShopRegions {
    static let purchases = RegionKey<Int>("shop.page.purchases")
}

/// Doors a region waits at until a test opens them, by name: a test of what is sent before a
/// slow region ends holds that region for as long as it looks, instead of racing a clock.
actor RegionGates {
    static let shared = RegionGates()

    private var opened: Set<String> = []
    private var waiting: [String: [CheckedContinuation<Void, Never>]] = [:]

    func wait(for name: String) async {
        guard !opened.contains(name) else { return }
        await withCheckedContinuation { waiting[name, default: []].append($0) }
    }

    func open(_ name: String) {
        opened.insert(name)
        for continuation in waiting.removeValue(forKey: name) ?? [] { continuation.resume() }
    }
}

/// A child that renders a fixed text after a delay, or once its gate is open, or fails.
struct SleepyRegion: RegionController {
    var text: String
    var delay: Duration = .zero
    var gate: String?
    var fails = false

    func render(in context: RequestContext) async throws -> HTMLOutput {
        if delay > .zero { try await Task.sleep(for: delay) }
        if let gate { await RegionGates.shared.wait(for: gate) }
        struct ChildFailure: Error {}
        if fails { throw ChildFailure() }
        var output = HTMLOutput()
        output.text(text)
        return output
    }

    func failureFragment(for error: any Error, in context: RequestContext) -> HTMLOutput {
        var output = HTMLOutput()
        output.write(static: "<p class=\"unavailable\">")
        output.text(text)
        output.write(static: " is unavailable right now.</p>")
        return output
    }
}

/// Knobs for the page, read from the query: `slowMs`, `slowGate` (the slow region waits for that
/// gate of ``RegionGates``), `failFast`, `requireSlow`, `buffered`.
struct RegionPageController: PageController {
    let id: Int

    func load(_ context: RequestContext) async throws -> RegionPageModel {
        guard id < 1000 else { throw HTTPError(.notFound, message: "No page \(id).") }
        return RegionPageModel(heading: "Page \(id)")
    }

    func render(_ model: RegionPageModel, in context: RequestContext) -> Page {
        let buffered = context.request.query["buffered"] != nil
        return Page(title: model.heading, body: context.render(RegionPageView.self, model), delivery: buffered ? .buffered : nil)
    }

    func regions(for model: RegionPageModel, in context: RequestContext) -> RegionPageView.Regions<Region> {
        let query = context.request.query
        let slow = Duration.milliseconds(Int(query["slowMs"] ?? "300") ?? 300)
        if query["loopCheck"] != nil {
            let loop = EventLoop.current
            return RegionPageView.Regions(
                fast: Region(source: nil, controller: LoopCheckRegion(requestLoop: loop)),
                slow: Region(source: nil, controller: LoopCheckRegion(requestLoop: loop))
            )
        }
        if query["meet"] != nil {
            let meeting = Meeting()
            return RegionPageView.Regions(
                fast: Region(source: nil, controller: MeetingRegion(name: "fast", other: "slow", meeting: meeting)),
                slow: Region(source: nil, controller: MeetingRegion(name: "slow", other: "fast", meeting: meeting))
            )
        }
        return RegionPageView.Regions(
            fast: Region(
                source: ShopRoutes.fast.path(id),
                controller: SleepyRegion(text: "fast <content>", delay: .milliseconds(300), fails: query["failFast"] != nil)),
            slow: Region(
                source: ShopRoutes.slow.path(id), controller: SleepyRegion(text: "slow content", delay: slow, gate: query["slowGate"]),
                deadline: .milliseconds(Int(query["deadlineMs"] ?? "5000") ?? 5000), isRequired: query["requireSlow"] != nil),
            purchases: context.regions.region(providedFor: ShopRegions.purchases, input: id, in: context)
        )
    }
}

/// Seed 000's `setStatus:`: the container picks its child with an exhaustive switch, so a new
/// status does not compile until it has a child.
enum OrderStatus: String, CaseIterable, Sendable {
    case awaitingPayment = "awaiting_payment"
    case paid
    case shipped
}

struct OrderPageController: PageController {
    let id: Int

    func load(_ context: RequestContext) async throws -> OrderStatus {
        OrderStatus.allCases[id % OrderStatus.allCases.count]
    }

    func render(_ status: OrderStatus, in context: RequestContext) -> Page {
        Page(title: "Order \(id)", body: context.render(StatusPageView.self, "Order \(id)"))
    }

    func regions(for status: OrderStatus, in context: RequestContext) -> StatusPageView.Regions<Region> {
        StatusPageView.Regions(status: Region(source: nil, controller: child(for: status)))
    }

    func child(for status: OrderStatus) -> any RegionController {
        switch status {
        case .awaitingPayment: SleepyRegion(text: "Pay now")
        case .paid: SleepyRegion(text: "Awaiting shipment")
        case .shipped: SleepyRegion(text: "On its way")
        }
    }
}

struct ShopModule: FeatureModule {
    func register(in app: inout ApplicationBuilder) {
        app.routes.page(ShopRoutes.page) { id, _ in RegionPageController(id: id) }
        app.routes.fragment(ShopRoutes.fast) { _, _ in SleepyRegion(text: "fast <content>") }
        app.routes.fragment(ShopRoutes.slow) { _, _ in SleepyRegion(text: "slow content") }
        app.routes.action(ShopRoutes.item) { id, _ in .text("item \(id.uuidString.lowercased())") }
        app.routes.action(ShopRoutes.named) { name, _ in .text("named \(name)") }
        app.routes.action(ShopRoutes.create) { _, _ in .redirect(to: ShopRoutes.page.path(1)) }
        app.routes.action(ShopRoutes.list) { _, _ in .text("list") }
        app.routes.action(ShopRoutes.boom) { _, _ in
            struct DatabaseDown: Error { let password = "hunter2" }
            throw DatabaseDown()
        }
        app.routes.page(ShopRoutes.order) { id, _ in OrderPageController(id: id) }
        app.routes.page(ShopRoutes.formRegion) { _, _ in FormRegionPage() }
    }
}

/// Another module, which the shop module never imports: it provides the purchases region.
struct PurchasesModule: FeatureModule {
    func register(in app: inout ApplicationBuilder) {
        app.regions.provide(ShopRegions.purchases, source: { "/regions/\($0)/purchases" }) { id, context in
            context.request.query["signedIn"] == nil ? nil : SleepyRegion(text: "You bought page \(id) twice")
        }
    }
}

struct TeapotErrorPage: ErrorPageController {
    func render(_ error: any HTTPResponseError, in context: RequestContext) -> Page {
        var body = HTMLOutput()
        body.write(static: "<p class=\"custom-404\">Nothing here, sorry.</p>")
        return Page(title: "Not found", body: body, status: error.status)
    }
}

/// Two children that each wait for the other to start: they can only both answer if they run at
/// the same time.
struct MeetingRegion: RegionController {
    let name: String
    let other: String
    let meeting: Meeting

    func render(in context: RequestContext) async throws -> HTMLOutput {
        try await meeting.arrive(name, waitingFor: other)
        var output = HTMLOutput()
        output.text("\(name) met \(other)")
        return output
    }
}

/// Who has arrived, per request.
actor Meeting {
    private var arrived: Set<String> = []

    struct NobodyCame: Error {}

    func arrive(_ name: String, waitingFor other: String) async throws {
        arrived.insert(name)
        for _ in 0..<500 where !arrived.contains(other) {
            try await Task.sleep(for: .milliseconds(10))
        }
        guard arrived.contains(other) else { throw NobodyCame() }
    }
}
