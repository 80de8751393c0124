/// How topic changes travel between the instances of an app that share a database.
///
/// Without one, changes stay in the process, which is all a single instance on SQLite needs.
/// With PostgreSQL, `PostgresTopicBus` sends them with `NOTIFY` and hears them with `LISTEN`.
/// A bus carries topics and versions only, never HTML: each instance renders for its own
/// subscribers, with their own sessions.
public protocol TopicBus: Sendable {
    /// Sends `topics` to the other instances. It must not wait long: it runs after a commit, on
    /// the way to answering the request that made the change.
    func send(_ topics: [Topic]) async

    /// Hears the changes the other instances send, calling `deliver` for each, until the task is
    /// cancelled. Calls `resynchronize` whenever it (re)connects: a change may have gone by
    /// unheard while it was not listening, so every open region must be rendered again, and
    /// `interrupted` when it stops hearing (the connection dropped), so that nothing is kept
    /// meanwhile (``RegionCache``).
    func listen(
        deliver: @escaping @Sendable ([Topic]) -> Void, resynchronize: @escaping @Sendable () -> Void,
        interrupted: @escaping @Sendable () -> Void) async
}
