import CTesseraShim
import Synchronization

/// The one place that suspends and resumes libmicrohttpd connections, and counts them.
///
/// `MHD_stop_daemon` aborts the process if a connection is still suspended, and Swift code
/// resumes one in its own time (an error page may take a while). So the server closes this
/// ledger before it stops, and then waits until every suspension has been resumed.
///
/// It also tells a resumed connection's daemon to run: a daemon in external mode has no channel
/// of its own to learn of a resume, and would leave the answer unsent until its next event.
final class Suspensions: Sendable {
    private struct State {
        var isClosed = false
        var count = 0
        var daemons: [Daemon] = []
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

    /// The server's daemons, once they have started.
    func serve(_ daemons: [Daemon]) {
        state.withLock { $0.daemons = daemons }
    }

    /// Resumes a connection that ``suspend(_:)`` suspended; call it exactly once for each.
    /// From any thread.
    func resume(_ connection: OpaquePointer) {
        // Asked before the resume: once resumed, the connection may end at any moment.
        let identity = tessera_mhd_connection_daemon(connection)
        MHD_resume_connection(connection)
        let daemon = state.withLock { state in
            state.count -= 1
            return state.daemons.first { $0.identity == identity }
        }
        daemon?.runSoon()
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
