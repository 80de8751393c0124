import Logging
import TesseraViews

/// Writes a region into its page: `<div data-region=…>` around the child's fragment, or its
/// failure fragment.
enum RegionMarkup {
    /// `<div data-region="name" data-region-src="url">…</div>`; a failed child leaves its failure
    /// fragment in its place, and the log says why. A `live` region that rendered also carries
    /// `data-region-version`, its ``RegionVersion``, which is returned, and `aria-live="polite"`,
    /// since its content may change under the visitor.
    @discardableResult
    static func write(
        _ outcome: Result<HTMLOutput, any Error>, of region: Region, named name: String, live: Bool,
        into output: inout HTMLOutput, in context: RequestContext
    ) -> String? {
        output.write(static: "<div data-region=\"")
        output.attribute(name)
        if let source = region.source {
            output.write(static: "\" data-region-src=\"")
            output.attribute(source)
        }
        switch outcome {
        case .success(let fragment):
            var version: String?
            if live {
                version = RegionVersion.of(fragment.bytes)
                output.write(static: "\" data-region-version=\"")
                output.attribute(version!)
                // A change shown while the visitor reads is told to a screen reader, politely.
                output.write(static: "\" aria-live=\"polite")
            }
            output.write(static: "\">")
            output.write(fragment)
            output.write(static: "</div>")
            return version
        case .failure(let error):
            context.logger.warning("region failed", metadata: ["region": "\(name)", "error": "\(String(reflecting: error))"])
            output.write(static: "\" data-region-failed=\"true\">")
            output.write(region.failureFragment(for: error, in: context))
            output.write(static: "</div>")
            return nil
        }
    }
}
