import CTesseraShim

/// The one place that suspends and resumes one daemon's connections, and counts them.
///
/// `MHD_stop_daemon` aborts the process if a connection is still suspended, and Swift code
/// resumes one in its own time (an error page may take a while). So the server closes this
/// ledger before it stops, and then waits until every suspension has been resumed.
///
/// A plain value inside its ``DaemonContext``, touched on the daemon's loop only: suspending
/// happens in libmicrohttpd's callbacks, and resuming hops to the loop (``DaemonContext/resume(_:)``),
/// so neither takes a lock.
struct Suspensions {
    private(set) var count = 0
    private(set) var isClosed = false

    /// Suspends `connection` until ``resume(_:)``. Returns `false`, suspending nothing, once the
    /// server is stopping: the caller then answers or ends the connection without waiting.
    mutating func suspend(_ connection: OpaquePointer) -> Bool {
        guard !isClosed else { return false }
        MHD_suspend_connection(connection)
        count += 1
        return true
    }

    /// Resumes a connection that ``suspend(_:)`` suspended; call it exactly once for each.
    mutating func resume(_ connection: OpaquePointer) {
        MHD_resume_connection(connection)
        count -= 1
    }

    /// Refuses every later suspension: the server is about to stop.
    mutating func close() {
        isClosed = true
    }
}
