import Foundation
public import GRDB
import Synchronization

/// How long a write waits for another process's lock on the database file: until the deadline
/// of the request it serves, or ``patience`` for a write outside a request.
///
/// SQLite's own busy timeout is one number for every write on the connection. Writes queue on
/// the writer behind the one that waits, so a timeout long enough for a patient write would
/// hold every request queued behind it past its deadline, and one short enough for them would
/// fail writes that could have waited. This busy handler asks each write's own deadline
/// instead: set one with ``during(_:deadline:)`` around the write, and install
/// ``busyMode`` in the pool's configuration.
public final class FileLockWait: Sendable {
    private let deadline = Mutex<ContinuousClock.Instant?>(nil)
    /// How long a write outside a request waits for the lock.
    public let patience: Duration
    /// How long the handler sleeps between two tries.
    private static let pause: Duration = .milliseconds(5)

    public init(patience: Duration = .seconds(5)) {
        self.patience = patience
    }

    /// The busy mode to give the writer's configuration.
    public var busyMode: Database.BusyMode {
        .callback { [self] tries in shouldTryAgain(after: tries) }
    }

    /// Runs `write` (on the writer, inside its block) with `deadline` as the limit of its waits.
    public func during<T>(_ write: () throws -> T, deadline: ContinuousClock.Instant?) rethrows -> T {
        self.deadline.withLock { $0 = deadline }
        defer { self.deadline.withLock { $0 = nil } }
        return try write()
    }

    private func shouldTryAgain(after tries: Int) -> Bool {
        if let deadline = deadline.withLock({ $0 }) {
            guard ContinuousClock.now < deadline else { return false }
        } else {
            guard Self.pause * tries < patience else { return false }
        }
        Thread.sleep(forTimeInterval: 0.005)
        return true
    }
}
