import Tessera
import TesseraViews

enum Visitor: RequestValueKey { typealias Value = String }
enum Text: HTMLView { static func render(_ model: String, into output: inout HTMLOutput) { output.text(model) } }

struct Shared: SharedRegion {
    typealias View = Text
    func keptUntil(_ id: Int) -> [Topic] { [] }
    func load(_ id: Int, in context: SharedRegionContext) async throws -> String {
        context.cookies["visitor"] ?? ""
    }
}
