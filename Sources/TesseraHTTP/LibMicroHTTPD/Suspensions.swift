import CTesseraShim
import Synchronization

/// The one place that suspends and resumes libmicrohttpd connections, and counts them.
///
/// `MHD_stop_daemon` aborts the process if a connection is still suspended, and Swift code
/// resumes one in its own time (an error page may take a while). So the server closes this
/// ledger before it stops, and then waits until every suspension has been resumed.
final class Suspensions: Sendable {
    private struct State {
        var isClosed = false
        var count = 0
    }

    private let state = Mutex(State())

    /// Suspends `connection` until ``resume(_:)``. Returns `false`, suspending nothing, once the
    /// server is stopping: the caller then answers or ends the connection without waiting.
    func suspend(_ connection: OpaquePointer) -> Bool {
        state.withLock { state in
            guard !state.isClosed else { return false }
            MHD_suspend_connection(connection)
            state.count += 1
            return true
        }
    }

    /// Resumes a connection that ``suspend(_:)`` suspended; call it exactly once for each.
    func resume(_ connection: OpaquePointer) {
        MHD_resume_connection(connection)
        state.withLock { $0.count -= 1 }
    }

    /// Refuses every later suspension: the server is about to stop.
    func close() {
        state.withLock { $0.isClosed = true }
    }

    /// Suspensions not resumed yet; the daemon may stop once this is zero after ``close()``.
    var count: Int {
        state.withLock { $0.count }
    }
}
