import Dispatch
import Synchronization
import Tessera
import TesseraHTTP
import TesseraViews

/// For the same-loop test: each region checks, after every kind of wait a region makes, that
/// it is still on the loop that read its request.
final class LoopLedger: Sendable {
    static let shared = LoopLedger()
    private let counts = Mutex<(checks: Int, moved: Int)>((0, 0))

    var snapshot: (checks: Int, moved: Int) { counts.withLock { $0 } }

    func check(_ expected: EventLoop?) {
        let current = EventLoop.current
        counts.withLock { counts in
            counts.checks += 1
            if expected == nil || current !== expected { counts.moved += 1 }
        }
    }
}

/// A region that waits in three ways (a yield, a timer, an answer from another thread, as a
/// database pool's) and checks its loop after each.
struct LoopCheckRegion: RegionController {
    /// The loop the request's page was built on.
    let requestLoop: EventLoop?

    func render(in context: RequestContext) async throws -> HTMLOutput {
        let ledger = LoopLedger.shared
        ledger.check(requestLoop)
        await Task.yield()
        ledger.check(requestLoop)
        try await Task.sleep(for: .milliseconds(1))
        ledger.check(requestLoop)
        await withCheckedContinuation { (answer: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async { answer.resume() }
        }
        ledger.check(requestLoop)
        var output = HTMLOutput()
        output.text("checked")
        return output
    }
}
