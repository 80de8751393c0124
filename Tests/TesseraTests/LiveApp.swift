import Foundation
import Synchronization
import Tessera
import TesseraViews

/// Counters that belong to visitors (the `visitor` cookie): the model of the live-region tests.
/// A counter is seen only by its owner, as an order is only by its shopper.
final class Counters: Sendable {
    private let values = Mutex<[Int: (owner: String, value: Int)]>([1: ("alice", 0), 2: ("bob", 0), 3: ("alice", 0)])

    func counter(_ id: Int, seenBy visitor: String?) throws -> CounterModel {
        guard let counter = values.withLock({ $0[id] }), counter.owner == visitor else {
            throw HTTPError(.notFound, message: "No such counter.")
        }
        return CounterModel(id: id, value: counter.value, device: "")
    }

    /// Adds one: the change a service commits before it publishes.
    func bump(_ id: Int) {
        values.withLock { $0[id]!.value += 1 }
    }
}

struct CounterModel: Sendable {
    var id: Int
    var value: Int
    /// What the visitor's session says of the device (`?device=` on the page keeps it there):
    /// each subscriber's re-render shows its own.
    var device: String
}

enum CounterTopics {
    static let counter = TopicFamily<Int>("counter")
}

enum CounterRoutes {
    static let page = Route<Int>("counter.page", .get, "/counters/{id}")
    static let value = Route<Int>("counter.value", .get, "/counters/{id}/value")
    static let note = Route<Int>("counter.note", .get, "/counters/{id}/note")
}

/// The live region: the count, the device the visitor's session names, and a form.
struct CounterRegion: RegionController {
    let counters: Counters
    let id: Int

    var topics: [Topic] { [CounterTopics.counter(id)] }

    func render(in context: RequestContext) async throws -> HTMLOutput {
        var counter = try counters.counter(id, seenBy: context.request.cookies["visitor"])
        counter.device = context.session["device"] ?? "none"
        return context.render(LiveCounterView.self, counter)
    }
}

/// A region with its own URL and no topics: not live.
struct NoteRegion: RegionController {
    func render(in context: RequestContext) async throws -> HTMLOutput {
        var output = HTMLOutput()
        output.text("A note that never changes.")
        return output
    }
}

struct CounterPage: PageController {
    let counters: Counters
    let id: Int

    func load(_ context: RequestContext) async throws -> String {
        _ = try counters.counter(id, seenBy: context.request.cookies["visitor"])
        if let device = context.request.query["device"] { context.session["device"] = device }
        return "Counter \(id)"
    }

    func render(_ title: String, in context: RequestContext) -> Page {
        Page(title: title, body: context.render(LiveCounterPageView.self, title))
    }

    func regions(for title: String, in context: RequestContext) -> LiveCounterPageView.Regions<Region> {
        LiveCounterPageView.Regions(
            counter: Region(source: CounterRoutes.value.path(id), controller: CounterRegion(counters: counters, id: id)),
            note: Region(source: CounterRoutes.note.path(id), controller: NoteRegion()))
    }
}

struct CounterModule: FeatureModule {
    let counters: Counters

    func register(in app: inout ApplicationBuilder) {
        app.routes.page(CounterRoutes.page) { [counters] id, _ in CounterPage(counters: counters, id: id) }
        app.routes.fragment(CounterRoutes.value) { [counters] id, _ in CounterRegion(counters: counters, id: id) }
        app.routes.fragment(CounterRoutes.note) { _, _ in NoteRegion() }
    }
}
