import Logging
import TesseraViews

/// Runs a page controller, the one way every full page is built: load through the services,
/// render into the layout, run the region children at once, and fill their slots, either
/// streaming in document order or all at the end.
///
/// An action that shows a page instead of redirecting (a form sent back with its errors, as a
/// 422) runs a page controller too, with ``RequestContext/render(_:)``.
extension RequestContext {
    /// Runs `controller` for this request, regions and all.
    public func render(_ controller: some PageController) async throws -> Response {
        var context = self
        return try await PageRenderer.decide(with: controller, in: self).value(given: &context)
    }
}

enum PageRenderer {
    /// A visitor who has the version kept for this page gets a 304 at once: nothing loads or
    /// renders, and no task starts. Anyone else waits for the page.
    static func decide(with controller: some PageController, in request: RequestContext) -> NowOrLater<RequestContext, Response> {
        // A kept page's copy for nobody has no visitor to answer 304: KeptPages validates it.
        let validation = request.keptPageRecord == nil ? PageValidation(request) : nil
        if let notModified = validation?.notModified() { return .now(notModified) }
        return .later { context in try await respond(with: controller, in: context, validation: validation) }
    }

    private static func respond(
        with controller: some PageController, in context: RequestContext, validation: PageValidation?
    ) async throws -> Response {
        let model = try await controller.load(context)
        // Only a model that names what JSON clients may see (JSONPageModel); any other is HTML.
        if let model = model as? any JSONPageModel, AcceptHeader(context.request.headers[.accept]).prefersJSON {
            return try JSONResponse.make(model.json)
        }
        var page = controller.render(model, in: context)
        let slots = controller.regions(for: model, in: context).filled
        // Live regions, for a page shown as it is (not a form sent back with its messages, which
        // a fresh fragment would wipe): those at their own URL whose child declares topics.
        let mayBeLive = context.application.live?.servesStreams == true && page.status == .ok
        let regions = slots.compactMap { slot in
            slot.fill.map { region in
                (name: slot.name, region: region, isLive: mayBeLive && region.source != nil && !region.topics.isEmpty)
            }
        }
        // Their stream's element goes after the page's last region.
        if regions.contains(where: \.isLive) { page.body.region(LiveStreamMarker.slot) }
        let document = context.layout.render(page, in: context)
        assert(
            slots.allSatisfy { slot in document.regions.contains { $0.name == slot.name } },
            "\(type(of: controller)) fills region slots its page does not render: its Regions type belongs to another view")
        var response = Response(status: page.status, headers: [.contentType: "text/html; charset=utf-8"])
        // A page asked for by its navigation script, which shows some of its regions already:
        // those are left out, so the answer is this visitor's alone, and never kept or validated.
        let held = RegionsHeld(context.request)
        if held != nil {
            response.headers[.cacheControl] = "private, no-store"
            response.headers.addVary(RegionsHeld.header.rawName)
        }

        // Every child starts now, so the page takes as long as its slowest region, not their sum.
        let byName = Dictionary(regions.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let running = Dictionary(
            regions.map { ($0.name, RegionRun($0.region, named: $0.name, in: context)) }, uniquingKeysWith: { first, _ in first })

        // A required region decides the status, so it must be done before anything is sent.
        for (name, region, _) in regions where region.isRequired {
            if case .failure(let error) = await running[name]!.outcome() {
                running.values.forEach { $0.cancel() }
                context.logger.warning("required region failed", metadata: ["region": "\(name)", "error": "\(String(reflecting: error))"])
                throw error
            }
        }

        // Streaming pays off only while a region is still working; a page whose regions all
        // answered already goes out in one piece, with a Content-Length.
        // A kept page's copy is kept whole: it waits for every region.
        let streamed =
            (page.delivery ?? .streamed) == .streamed && context.keptPageRecord == nil && running.values.contains { $0.finishedOutcome == nil }
        // A page sent whole can carry its version; a streamed one sends its head too early.
        func whole(_ body: [UInt8]) -> Response {
            response.body = .bytes(body)
            if let record = context.keptPageRecord {
                record.report(
                    page.status == .ok ? dependencies(of: controller, regions.map { $0.region }, running: running.values, in: context) : nil,
                    route: context.route?.name)
            }
            guard let validation, held == nil, page.status == .ok,
                let topics = dependencies(of: controller, regions.map { $0.region }, running: running.values, in: context)
            else { return response }
            return validation.validated(response, body: body, until: topics, session: context.session)
        }
        if document.regions.isEmpty {
            // Nothing to fill in: the document is the page.
            return whole(document.bytes)
        }
        let assembly = Assembly(
            document: document, byName: byName, running: running, liveCount: regions.count(where: \.isLive), held: held, context: context)
        if !streamed {
            var buffered = BufferedPage(output: HTMLOutput(capacity: document.bytes.count + 4096))
            try await assembly.write(into: &buffered)
            return whole(buffered.output.bytes)
        }
        response.body = .stream { writer in
            var page = StreamedPage(writer: writer)
            try await assembly.write(into: &page)
        }
        return response
    }

    /// What a rendered page depends on, for its validator: the topics its controller, the layout
    /// and every region declare; `nil` when one of them declares nothing, or a region failed
    /// (its failure note is not the page's version).
    private static func dependencies(
        of controller: some PageController, _ regions: [Region], running: some Sequence<RegionRun>,
        in context: RequestContext
    ) -> [Topic]? {
        guard var topics = controller.freshness.topics, let layout = context.layout.freshness.topics else { return nil }
        topics += layout
        for region in regions {
            guard let declared = region.dependencies else { return nil }
            topics += declared
        }
        for run in running {
            guard case .success = run.finishedOutcome else { return nil }
        }
        return topics
    }

    /// The document with its regions in their slots, in document order, the one way for a
    /// buffered page and a streamed one: each region's outcome as it comes (a stream sends what
    /// it has before waiting), the live-stream element after the last live region.
    struct Assembly: Sendable {
        let document: HTMLOutput
        let byName: [String: (name: String, region: Region, isLive: Bool)]
        let running: [String: RegionRun]
        let liveCount: Int
        let held: RegionsHeld?
        let context: RequestContext

        func write(into page: inout some PageSink) async throws {
            do {
                var cursor = 0
                var shown: [LiveStreamMarker.Shown] = []
                for slot in document.regions {
                    try await page.write(document: document.bytes[cursor..<slot.offset])
                    cursor = slot.offset
                    if slot.name == LiveStreamMarker.slot {
                        assert(shown.count == liveCount, "the live-stream element comes after every live region, once")
                        try await page.write { LiveStreamMarker.write(shown, into: &$0) }
                        continue
                    }
                    guard let (_, region, isLive) = byName[slot.name], let run = running[slot.name] else { continue }
                    // Send what is ready before waiting, and only then: a region that is already
                    // done costs no flush.
                    let outcome: Result<RegionFragment, any Error>
                    if let ready = run.finishedOutcome {
                        outcome = ready
                    } else {
                        try await page.beforeWaiting()
                        outcome = await run.outcome()
                    }
                    let version = try await page.write {
                        RegionMarkup.write(outcome, of: region, named: slot.name, live: isLive, held: held, into: &$0, in: context)
                    }
                    if isLive, let source = region.source { shown.append(.init(source: source, version: version)) }
                }
                try await page.write(document: document.bytes[cursor...])
            } catch {
                running.values.forEach { $0.cancel() }
                throw error
            }
        }
    }
}
