import Tessera
import TesseraViews

enum Text: HTMLView { static func render(_ model: String, into output: inout HTMLOutput) { output.text(model) } }
struct Basket: Sendable { let owner: String }

struct Shared: SharedRegion {
    typealias View = Text
    func keptUntil(_ id: Int) -> [Topic] { [] }
    func load(_ id: Int, in context: SharedRegionContext) async throws -> String { "" }
}
func region(for basket: Basket, in context: RequestContext) -> Region { Region(shared: Route<Int>("basket", .get, "/baskets/{id}"), basket, in: context) }
