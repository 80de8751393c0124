import Tessera
import TesseraViews

enum Text: HTMLView { static func render(_ model: String, into output: inout HTMLOutput) { output.text(model) } }

struct Kept: KeptPage {
    var keptUntil: [Topic] { [] }
    func render(_ model: String, in context: KeptPageContext) -> Page { Page(title: model, body: context.render(Text.self, model)) }
    func load(_ context: KeptPageContext) async throws -> String {
        // A page kept for every visitor without a session reads a cookie:
        context.cookies["visitor"] ?? ""
    }
}
