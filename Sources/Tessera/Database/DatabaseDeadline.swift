/// When the request being answered stops waiting for its database.
///
/// A page that waits on a stalled database holds its visitor, and a connection and a thread
/// with them, for as long as the stall lasts. With ``ApplicationBuilder/databasePatience`` set,
/// the framework gives every request a deadline, bound as a task-local value around its work,
/// and a database adapter waits no longer than it for a connection, a lock or an answer: past
/// it, the request is a ``DatabaseUnavailable`` (a 503 with `Retry-After`), and what the
/// adapter started finishes in the background. Outside a request (at start, in a background
/// job) there is no deadline, and adapters use their own limits.
public enum DatabaseDeadline {
    /// The current request's deadline; `nil` outside a request, or in an app without patience.
    @TaskLocal public static var current: ContinuousClock.Instant?
}
