import Tessera
import TesseraViews

enum Text: HTMLView { static func render(_ model: String, into output: inout HTMLOutput) { output.text(model) } }

struct Kept: KeptPage {
    let visitor: String
    var keptUntil: [Topic] { [] }
    func render(_ model: String, in context: KeptPageContext) -> Page { Page(title: model, body: context.render(Text.self, model)) }
    func load(_ context: KeptPageContext) async throws -> String { visitor }
}
func register(in routes: inout RouterBuilder) { routes.keptPage(Route<Int>("kept", .get, "/kept/{id}")) { id, context in Kept(visitor: context.session["user"] ?? "") } }
