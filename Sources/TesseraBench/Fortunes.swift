import Tessera
import TesseraViews

/// A TechEmpower fortune.
struct Fortune: Sendable {
    var id: Int
    var message: String
}

/// Where a Fortunes page reads its rows: memory (`/fortunes`, the template's cost) or SQLite
/// (`/sqlite-fortunes`) or PostgreSQL (`/fortunes`, TechEmpower's test): the data path's.
protocol FortuneSource: Sendable {
    func all(within budget: DatabaseBudget) async throws -> [Fortune]
}

/// The 12 stored rows, kept in memory.
struct FortuneStore: FortuneSource {
    func all(within budget: DatabaseBudget) async -> [Fortune] {
        Self.rows
    }

    static let rows: [Fortune] = [
        Fortune(id: 1, message: "fortune: No such file or directory"),
        Fortune(id: 2, message: "A computer scientist is someone who fixes things that aren't broken."),
        Fortune(id: 3, message: "After enough decimal places, nobody gives a damn."),
        Fortune(id: 4, message: "A bad random number generator: 1, 1, 1, 1, 1, 4.33e+67, 1, 1, 1"),
        Fortune(id: 5, message: "A computer program does what you tell it to do, not what you want it to do."),
        Fortune(id: 6, message: "Emacs is a nice operating system, but I prefer UNIX. — Tom Christaensen"),
        Fortune(id: 7, message: "Any program that runs right is obsolete."),
        Fortune(id: 8, message: "A list is only as strong as its weakest link. — Donald Knuth"),
        Fortune(id: 9, message: "Feature: A bug with seniority."),
        Fortune(id: 10, message: "Computers make very fast, very accurate mistakes."),
        Fortune(id: 11, message: "<script>alert(\"This should not be displayed in a browser alert box.\");</script>"),
        Fortune(id: 12, message: "フレームワークのベンチマーク"),
    ]
}

/// The TechEmpower rules: add a row at request time, sort by message, render escaped.
struct FortunesPageController: PageController {
    let store: any FortuneSource

    func load(_ context: RequestContext) async throws -> [Fortune] {
        var fortunes = try await store.all(within: context.databaseBudget)
        fortunes.append(Fortune(id: 0, message: "Additional fortune added at request time."))
        fortunes.sort { $0.message.utf8.lexicographicallyPrecedes($1.message.utf8) }
        return fortunes
    }

    func render(_ fortunes: [Fortune], in context: RequestContext) -> Page {
        Page(title: "Fortunes", body: context.render(FortunesView.self, fortunes))
    }
}

/// A page of three regions, each a child controller that answers at once: the cost of the
/// container machinery itself (three tasks, slots, a streamed body).
struct RegionsPageController: PageController {
    enum Kind { case plain, sourced, live }
    let kind: Kind

    func load(_ context: RequestContext) async throws -> String { "Regions" }

    func render(_ title: String, in context: RequestContext) -> Page {
        Page(title: title, body: context.render(RegionsView.self, title), delivery: context.request.query["buffered"] == nil ? nil : .buffered)
    }

    func regions(for title: String, in context: RequestContext) -> RegionsView.Regions<Region> {
        func region(_ name: String) -> Region {
            Region(source: kind == .plain ? nil : "/regions/\(name)", controller: StaticTextRegion(name: name, isLive: kind == .live))
        }
        return RegionsView.Regions(first: region("first"), second: region("second"), third: region("third"))
    }
}

enum BenchTopics {
    static let region = TopicFamily<String>("region")
}

/// "The first region": a child that renders from memory, live or not. Like a real region's
/// controller it holds its model's key and makes its topics only when asked.
struct StaticTextRegion: RegionController {
    let name: String
    let isLive: Bool

    var topics: [Topic] { isLive ? [BenchTopics.region(name)] : [] }

    func render(in context: RequestContext) async throws -> HTMLOutput {
        var output = HTMLOutput(capacity: 64)
        output.write(static: "The ")
        output.text(name)
        output.write(static: " region")
        return output
    }
}

/// The benchmark's layout: exactly the TechEmpower markup around the page body.
struct BenchLayout: PageLayout {
    func render(_ page: Page, in context: RequestContext) -> HTMLOutput {
        context.render(LayoutView.self, LayoutContent(title: page.title, body: page.body))
    }
}
