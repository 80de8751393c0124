import Tessera
import TesseraViews

enum Text: HTMLView { static func render(_ model: String, into output: inout HTMLOutput) { output.text(model) } }

struct Leak: SharedRegion {
    typealias View = Text
    let visitor: Request
    func keptUntil(_ id: Int) -> [Topic] { [] }
    func load(_ id: Int, in context: SharedRegionContext) async throws -> String { visitor.cookies["visitor"] ?? "" }
}
func region(in context: RequestContext) -> Region { Region(shared: Leak(visitor: context.request), 1, in: context) }
