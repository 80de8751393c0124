import Synchronization

/// A value of which each event loop keeps its own, touched only on that loop's thread: state a
/// request reads on every visit (sessions verified lately) without a lock shared between loops.
///
/// The values live in the loops themselves, made on a loop's first use. Code that runs on no
/// loop (a test, a command, a background job on the cooperative pool) shares one more value,
/// behind a lock. A loop keeps its value as long as it runs, so a `LoopLocal` is made once, by
/// something that lives as long as the loops (a codec, a store), not per request.
public final class LoopLocal<Value: AnyObject>: @unchecked Sendable {
    // @unchecked: a loop's value is reached through `EventLoop.current`, on that loop's thread
    // only; `offLoop` is touched only while `offLoopLock` is held.
    private let make: @Sendable () -> Value
    private let offLoop: Value
    private let offLoopLock = Mutex(())

    /// `make` makes each loop's value, and the one shared off the loops.
    public init(_ make: @escaping @Sendable () -> Value) {
        self.make = make
        self.offLoop = make()
    }

    /// Calls `body` with the caller's loop's value, or with the shared one off the loops.
    public func withValue<Result>(_ body: (Value) throws -> Result) rethrows -> Result {
        if let loop = EventLoop.current {
            return try body(loop.localValue(for: self, orMake: make))
        }
        return try offLoopLock.withLock { _ in try body(offLoop) }
    }
}
