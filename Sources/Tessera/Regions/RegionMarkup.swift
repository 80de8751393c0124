import Logging
import TesseraViews

/// Writes a region into its page: `<div data-region=…>` around the child's fragment, or its
/// failure fragment.
enum RegionMarkup {
    /// `<div data-region="name" data-region-src="url" data-region-version="…">…</div>`; a failed
    /// child leaves its failure fragment in its place, and the log says why. A region that
    /// rendered carries its ``RegionVersion`` when it has one (a kept shared region, a live
    /// region), which is returned: a page's navigation script names the versions it shows, and
    /// a region among those it `held` is sent empty, marked `data-region-same`. A `live` region
    /// also carries `aria-live="polite"`, since its content may change under the visitor.
    @discardableResult
    static func write(
        _ outcome: Result<RegionFragment, any Error>, of region: Region, named name: String, live: Bool, held: RegionsHeld?,
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
            // A live region's version is found here, for its stream; a kept one's came with it.
            let version = fragment.version ?? (live ? RegionVersion.of(fragment.html.bytes) : nil)
            if let version {
                output.write(static: "\" data-region-version=\"")
                output.attribute(version)
            }
            // A change shown while the visitor reads is told to a screen reader, politely.
            if live { output.write(static: "\" aria-live=\"polite") }
            if let version, let held, held.contains(version) {
                output.write(static: "\" data-region-same=\"true\"></div>")
                return version
            }
            output.write(static: "\">")
            output.write(fragment.html)
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
