import Tessera
import TesseraViews

enum Visitor: RequestValueKey { typealias Value = String }

struct Shared: SharedRegionController {
    var caching: RegionCaching { .shared("ReadsSession", until: []) }

    func render(in context: SharedRegionContext) async throws -> HTMLOutput {
        var output = HTMLOutput(capacity: 64, language: context.language)
        output.text(context.session["user"] ?? "")
        return output
    }
}
