import Tessera
import TesseraViews

enum Text: HTMLView { static func render(_ model: String, into output: inout HTMLOutput) { output.text(model) } }

struct Leak: SharedRegion {
    typealias View = Text
    let visitor: Session
    func keptUntil(_ id: Int) -> [Topic] { [] }
    func load(_ id: Int, in context: SharedRegionContext) async throws -> String { visitor["user"] ?? "" }
}
func region(in context: RequestContext) -> Region { Region(shared: Leak(visitor: context.session), 1, in: context) }
