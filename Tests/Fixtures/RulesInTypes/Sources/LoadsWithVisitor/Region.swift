import Tessera
import TesseraViews

enum Text: HTMLView { static func render(_ model: String, into output: inout HTMLOutput) { output.text(model) } }
struct Baskets: Sendable { func basket(in context: RequestContext) -> String { context.session["basket"] ?? "" } }

struct Shared: SharedRegion {
    typealias View = Text
    let baskets: Baskets
    func keptUntil(_ id: Int) -> [Topic] { [] }
    func load(_ id: Int, in context: SharedRegionContext) async throws -> String {
        baskets.basket(in: context)
    }
}
