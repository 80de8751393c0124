import Logging
import Synchronization
import TesseraViews

/// Runs a page controller: loads, renders into the layout, runs the region children at once,
/// and fills their slots, either streaming in document order or all at the end.
extension RequestContext {
    /// A page without regions, in the layout, as a response: for actions that show a page
    /// instead of redirecting, such as a form with errors (status 422).
    public func render(_ page: Page) -> Response {
        let document = FormProtection.$tokenSource.withValue(session) { routes.layout.render(page, in: self) }
        return Response.html(document.bytes, status: page.status)
    }

    /// Runs a page controller from an action, regions and all: a form sent back with errors is
    /// shown on the page it came from, not on a stripped-down copy.
    public func render(_ controller: some PageController) async throws -> Response {
        try await PageRenderer.respond(with: controller, in: self)
    }

    /// Renders a view for this request, so that its forms carry the session's CSRF token.
    /// Page controllers' `render` and region children get this for free.
    public func render<View: HTMLView>(_ view: View.Type, _ model: View.Model) -> HTMLOutput {
        FormProtection.$tokenSource.withValue(session) { View.render(model) }
    }

    /// Runs `body` with the session bound as the CSRF token source, synchronously (cheap).
    func withFormProtection<T>(_ body: () throws -> T) rethrows -> T {
        try FormProtection.$tokenSource.withValue(session, operation: body)
    }
}

enum PageRenderer {
    static func respond(with controller: some PageController, in context: RequestContext) async throws -> Response {
        let model = try await controller.load(context)
        if let encodable = model as? any Encodable, AcceptHeader(context.request.headers[.accept]).prefersJSON {
            return try JSONResponse.make(encodable)
        }
        let page = context.withFormProtection { controller.render(model, in: context) }
        let regions = controller.regions(for: model, in: context)
        let document = context.withFormProtection { context.routes.layout.render(page, in: context) }
        var response = Response(status: page.status, headers: [.contentType: "text/html; charset=utf-8"])

        // Every child starts now, so the page takes as long as its slowest region, not their sum.
        let byName = Dictionary(regions.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        // Started while the session is bound, so the children's forms get the CSRF token too.
        let running = context.withFormProtection {
            Dictionary(regions.map { region in (region.name, RegionRun(region, in: context)) }, uniquingKeysWith: { first, _ in first })
        }
        for name in byName.keys where !document.regions.contains(where: { $0.name == name }) {
            context.logger.debug("region has no slot in the page", metadata: ["region": "\(name)"])
        }

        // A required region decides the status, so it must be done before anything is sent.
        for region in regions where region.isRequired {
            if case .failure(let error) = await running[region.name]!.outcome() {
                running.values.forEach { $0.cancel() }
                throw error
            }
        }

        // Streaming pays off only while a region is still working; a page whose regions all
        // answered already goes out in one piece, with a Content-Length.
        let streamed = (page.delivery ?? .streamed) == .streamed && running.values.contains { $0.finishedOutcome == nil }
        if !streamed {
            var assembled = HTMLOutput(capacity: document.bytes.count + 4096)
            var cursor = 0
            for slot in document.regions {
                assembled.write(trusted: document.bytes[cursor..<slot.offset])
                cursor = slot.offset
                guard let region = byName[slot.name], let run = running[slot.name] else { continue }
                RegionRunner.write(await run.outcome(), of: region, into: &assembled, logger: context.logger)
            }
            assembled.write(trusted: document.bytes[cursor...])
            response.body = .bytes(assembled.bytes)
            return response
        }

        response.body = .stream { writer in
            do {
                var cursor = 0
                for slot in document.regions {
                    try await writer.write(Array(document.bytes[cursor..<slot.offset]))
                    cursor = slot.offset
                    guard let region = byName[slot.name], let run = running[slot.name] else { continue }
                    // Send what is ready before waiting, and only then: a region that is already
                    // done costs no flush.
                    let outcome: Result<HTMLOutput, any Error>
                    if let ready = run.finishedOutcome {
                        outcome = ready
                    } else {
                        try await writer.flush()
                        outcome = await run.outcome()
                    }
                    var piece = HTMLOutput(capacity: 1024)
                    RegionRunner.write(outcome, of: region, into: &piece, logger: context.logger)
                    try await writer.write(piece.bytes)
                }
                try await writer.write(Array(document.bytes[cursor...]))
            } catch {
                running.values.forEach { $0.cancel() }
                throw error
            }
        }
        return response
    }
}

/// Runs one child controller within its deadline, and writes its region.
enum RegionRunner {
    struct DeadlinePassed: Error, CustomStringConvertible {
        let deadline: Duration
        var description: String { "the region did not answer within \(deadline)" }
    }

    /// `<div data-region="name" data-region-src="url">…</div>`; a failed child leaves its failure
    /// fragment in its place, and the log says why.
    static func write(_ outcome: Result<HTMLOutput, any Error>, of region: Region, into output: inout HTMLOutput, logger: Logger) {
        output.write(static: "<div data-region=\"")
        output.attribute(region.name)
        if let source = region.source {
            output.write(static: "\" data-region-src=\"")
            output.attribute(source)
        }
        switch outcome {
        case .success(let fragment):
            output.write(static: "\">")
            output.write(fragment)
        case .failure(let error):
            logger.warning("region failed", metadata: ["region": "\(region.name)", "error": "\(String(reflecting: error))"])
            output.write(static: "\" data-region-failed=\"true\">")
            output.write(region.controller.failureFragment(for: error))
        }
        output.write(static: "</div>")
    }
}

/// One child controller running for its region, within its deadline.
///
/// The child starts with `Task.immediate`: one that does not suspend (rendering from memory, say)
/// finishes right here, with no thread hop and no timer. Only a child that suspends gets a
/// deadline timer, cancelled as soon as the child answers; whichever comes first decides the
/// outcome, so a child that ignores cancellation cannot hold the page.
final class RegionRun: Sendable {
    private enum State {
        case running(waiters: [CheckedContinuation<Result<HTMLOutput, any Error>, Never>], timer: Task<Void, Never>?)
        case finished(Result<HTMLOutput, any Error>)
    }

    private let state = Mutex(State.running(waiters: [], timer: nil))
    private let child = Mutex<Task<Void, Never>?>(nil)

    init(_ region: Region, in context: RequestContext) {
        let task = Task.immediate { [self] in
            let outcome: Result<HTMLOutput, any Error>
            do { outcome = .success(try await region.controller.render(in: context)) } catch { outcome = .failure(error) }
            finish(with: outcome)
        }
        child.withLock { $0 = task }
        guard finishedOutcome == nil else { return }
        let timer = Task { [self] in
            try? await Task.sleep(for: region.deadline)
            guard !Task.isCancelled else { return }
            if finish(with: .failure(RegionRunner.DeadlinePassed(deadline: region.deadline))) { cancel() }
        }
        let alreadyDone: Bool = state.withLock { state in
            guard case .running(let waiters, nil) = state else { return true }
            state = .running(waiters: waiters, timer: timer)
            return false
        }
        if alreadyDone { timer.cancel() }
    }

    /// The outcome if the child has answered (or its deadline passed), without waiting.
    var finishedOutcome: Result<HTMLOutput, any Error>? {
        state.withLock { state in
            if case .finished(let outcome) = state { return outcome }
            return nil
        }
    }

    func outcome() async -> Result<HTMLOutput, any Error> {
        if let done = finishedOutcome { return done }
        return await withCheckedContinuation { continuation in
            let done: Result<HTMLOutput, any Error>? = state.withLock { state in
                switch state {
                case .finished(let outcome):
                    return outcome
                case .running(let waiters, let timer):
                    state = .running(waiters: waiters + [continuation], timer: timer)
                    return nil
                }
            }
            if let done { continuation.resume(returning: done) }
        }
    }

    /// Records the first outcome; true when this call was first.
    @discardableResult
    private func finish(with outcome: Result<HTMLOutput, any Error>) -> Bool {
        let pending: (waiters: [CheckedContinuation<Result<HTMLOutput, any Error>, Never>], timer: Task<Void, Never>?)? = state.withLock { state in
            guard case .running(let waiters, let timer) = state else { return nil }
            state = .finished(outcome)
            return (waiters, timer)
        }
        guard let pending else { return false }
        pending.timer?.cancel()
        for waiter in pending.waiters { waiter.resume(returning: outcome) }
        return true
    }

    func cancel() {
        child.withLock { $0 }?.cancel()
    }
}
