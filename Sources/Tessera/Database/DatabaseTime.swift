import Synchronization

/// The time one request spends in its database, summed over every call, for the
/// `http_request_database_seconds` histogram of ``MetricsMiddleware``.
///
/// Storage code does not pass it around: ``MetricsMiddleware`` binds the request's meter as a
/// task-local value around the rest of the request, and a database adapter adds each call's time with
/// `DatabaseTime.measure { … }` (the storefront wraps its GRDB pool in one). Outside a measured request,
/// measuring costs a task-local lookup and nothing else.
public final class DatabaseTime: Sendable {
    /// The meter of the request being handled, if it is measured.
    @TaskLocal public static var current: DatabaseTime?

    private let nanoseconds = Atomic<Int64>(0)

    /// A meter at zero.
    public init() {}

    /// Everything measured so far.
    public var total: Duration {
        .nanoseconds(nanoseconds.load(ordering: .relaxed))
    }

    /// Runs one database call, adding its time to the current request's meter.
    public static func measure<T>(_ call: () throws -> T) rethrows -> T {
        guard let meter = current else { return try call() }
        let start = ContinuousClock.now
        defer { meter.add(ContinuousClock.now - start) }
        return try call()
    }

    /// Runs one awaited database call, adding its time to the current request's meter.
    public static func measure<T>(isolation: isolated (any Actor)? = #isolation, _ call: () async throws -> T) async rethrows -> T {
        guard let meter = current else { return try await call() }
        let start = ContinuousClock.now
        defer { meter.add(ContinuousClock.now - start) }
        return try await call()
    }

    func add(_ duration: Duration) {
        nanoseconds.add(duration.nanoseconds, ordering: .relaxed)
    }
}
