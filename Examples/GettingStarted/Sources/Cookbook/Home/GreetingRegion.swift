import Tessera
import TesseraViews

/// The greeting region: rendered with the page, and alone at `/greeting`.
struct GreetingRegion: RegionController {
    let greetings: GreetingService

    func render(in context: RequestContext) async throws -> HTMLOutput {
        context.render(GreetingView.self, greetings.greeting())
    }
}
