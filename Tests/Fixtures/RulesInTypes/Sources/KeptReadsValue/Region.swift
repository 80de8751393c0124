import Tessera
import TesseraViews

enum Visitor: RequestValueKey { typealias Value = String }
enum Text: HTMLView { static func render(_ model: String, into output: inout HTMLOutput) { output.text(model) } }

struct Kept: KeptPage {
    var keptUntil: [Topic] { [] }
    func render(_ model: String, in context: KeptPageContext) -> Page { Page(title: model, body: context.render(Text.self, model)) }
    func load(_ context: KeptPageContext) async throws -> String {
        context[Visitor.self] ?? ""
    }
}
