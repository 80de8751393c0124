import Tessera
import TesseraViews

/// What a shared region may use: the language, the app's views and messages, the logger.
struct Shared: SharedRegionController {
    var caching: RegionCaching { .shared("fine", until: []) }

    func render(in context: SharedRegionContext) async throws -> HTMLOutput {
        context.logger.debug("rendering")
        var output = HTMLOutput(capacity: 64, language: context.language)
        output.text(context.language.code)
        return output
    }
}

/// A region of the visitor's own reads all of it.
struct Yours: RegionController {
    func render(in context: RequestContext) async throws -> HTMLOutput {
        var output = HTMLOutput(capacity: 64, language: context.language)
        output.text(context.session["user"] ?? context.request.cookies["visitor"] ?? "")
        return output
    }
}
