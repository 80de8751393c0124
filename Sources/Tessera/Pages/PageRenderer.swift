import Logging
import Synchronization
import TesseraViews

/// Runs a page controller: loads, renders into the layout, runs the region children at once,
/// and fills their slots, either streaming in document order or all at the end.
extension RequestContext {
    /// A page without regions, in the layout, as a response: for actions that show a page
    /// instead of redirecting, such as a form with errors (status 422).
    public func render(_ page: Page) -> Response {
        Response.html(routes.layout.render(page, in: self).bytes, status: page.status)
    }
}

enum PageRenderer {
    static func respond(with controller: some PageController, in context: RequestContext) async throws -> Response {
        let model = try await controller.load(context)
        if let encodable = model as? any Encodable, AcceptHeader(context.request.headers[.accept]).prefersJSON {
            return try JSONResponse.make(encodable)
        }
        let page = controller.render(model, in: context)
        let regions = controller.regions(for: model, in: context)
        let document = context.routes.layout.render(page, in: context)
        var response = Response(status: page.status, headers: [.contentType: "text/html; charset=utf-8"])

        // Every child starts now, so the page takes as long as its slowest region, not their sum.
        let byName = Dictionary(regions.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let running = Dictionary(regions.map { region in
            (region.name, Task { await RegionRunner.run(region, in: context) })
        }, uniquingKeysWith: { first, _ in first })
        for name in byName.keys where !document.regions.contains(where: { $0.name == name }) {
            context.logger.debug("region has no slot in the page", metadata: ["region": "\(name)"])
        }

        // A required region decides the status, so it must be done before anything is sent.
        for region in regions where region.isRequired {
            if case .failure(let error) = await running[region.name]!.value {
                running.values.forEach { $0.cancel() }
                throw error
            }
        }

        let streamed = (page.delivery ?? .streamed) == .streamed && regions.contains { !$0.isRequired }
        if !streamed {
            var assembled = HTMLOutput(capacity: document.bytes.count + 4096)
            var cursor = 0
            for slot in document.regions {
                assembled.write(trusted: document.bytes[cursor..<slot.offset])
                cursor = slot.offset
                guard let region = byName[slot.name], let task = running[slot.name] else { continue }
                RegionRunner.write(await task.value, of: region, into: &assembled, logger: context.logger)
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
                    guard let region = byName[slot.name], let task = running[slot.name] else { continue }
                    try await writer.flush()
                    var piece = HTMLOutput(capacity: 1024)
                    RegionRunner.write(await task.value, of: region, into: &piece, logger: context.logger)
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

    static func run(_ region: Region, in context: RequestContext) async -> Result<HTMLOutput, any Error> {
        // The first of (render, deadline) wins; a child that ignores cancellation cannot hold the page.
        let child = Task { () -> Result<HTMLOutput, any Error> in
            do { return .success(try await region.controller.render(in: context)) } catch { return .failure(error) }
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let first = ResumeOnce(continuation)
                Task { first.resume(with: await child.value) }
                Task {
                    try? await Task.sleep(for: region.deadline)
                    if first.resume(with: .failure(DeadlinePassed(deadline: region.deadline))) { child.cancel() }
                }
            }
        } onCancel: {
            child.cancel()
        }
    }

    /// `<div data-region="name" data-region-src="url">…</div>`; a failed child leaves a short note
    /// in its place, and the log says why.
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
            output.write(static: "\" data-region-failed=\"true\"><p class=\"region-failed\" role=\"status\">This part of the page could not be loaded.</p>")
        }
        output.write(static: "</div>")
    }
}

/// Resumes a continuation with whichever answer comes first; later ones are dropped.
final class ResumeOnce<Value: Sendable>: Sendable {
    private let continuation: Mutex<CheckedContinuation<Value, Never>?>

    init(_ continuation: CheckedContinuation<Value, Never>) {
        self.continuation = Mutex(continuation)
    }

    /// True when this call was the one that resumed.
    @discardableResult
    func resume(with value: Value) -> Bool {
        guard let continuation = continuation.withLock({ $0.take() }) else { return false }
        continuation.resume(returning: value)
        return true
    }
}
