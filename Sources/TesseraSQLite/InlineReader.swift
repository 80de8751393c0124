public import GRDB
import Synchronization

/// Read-only connections to a SQLite database in WAL mode, read on the caller's thread.
///
/// A page's reads take microseconds; GRDB's `DatabasePool.read` spent several times that around
/// each one. Its awaited form hops to a reader's queue and back (and the request's connection
/// must be suspended and resumed on libmicrohttpd for it); its blocking form checks a reader
/// out through a barrier queue, a semaphore and a group, and parses `BEGIN`, `COMMIT` and a
/// schema check for every read. `perf` showed that work costing more than the queries.
///
/// Here a read takes a connection from a locked free list (opening one when all are busy, so
/// there are as many as threads that read at once), and runs in a transaction whose `BEGIN` and
/// `COMMIT` are prepared once. It never waits for the writer: in WAL mode a reader sees the last
/// commit while a write goes on. Writes stay with the `DatabasePool` that owns the file, one
/// serialised transaction at a time.
///
/// Open it after the migrations: the connections keep the schema they first read, as a server
/// whose schema never changes while it serves can.
public final class InlineReader: Sendable {
    private let path: String
    private let configuration: Configuration
    private let idle = Mutex<[DatabaseQueue]>([])

    /// How much of the file each connection maps: address space, not memory; the kernel's page
    /// cache holds the pages, once for every connection.
    public static let memoryMapSize = 1 << 30

    /// - Parameters:
    ///   - path: the database file, already in WAL mode (a `DatabasePool` puts it there).
    ///   - configuration: for each connection; it is made read-only.
    public init(path: String, configuration: Configuration = Configuration()) {
        var configuration = configuration
        configuration.readonly = true
        configuration.label = configuration.label ?? "InlineReader"
        // As GRDB's own readers: wait out the moments a read-only connection may find the
        // database busy (WAL recovery, the last connection's cleanup) instead of failing.
        configuration.busyMode = .timeout(10)
        // Pages through a memory map rather than a `pread` each: a search walks megabytes of
        // full-text index, and the system calls were most of its time.
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA mmap_size = \(Self.memoryMapSize)") }
        self.path = path
        self.configuration = configuration
    }

    /// Runs `body` with a connection and no transaction, on this thread: for a read that is one
    /// statement, which sees one snapshot by itself. A transaction around it would cost a
    /// `BEGIN` and a `COMMIT` (a sixth of `/sqlite-fortunes`, measured).
    public func unsafeRead<T>(_ body: (Database) throws -> T) throws -> T {
        let connection = try idle.withLock { $0.popLast() } ?? DatabaseQueue(path: path, configuration: configuration)
        defer { idle.withLock { $0.append(connection) } }
        return try connection.inDatabase(body)
    }

    /// Runs `body` in one read transaction, on this thread, and returns what it returns: for a
    /// read of several statements that must see the same moment.
    public func read<T>(_ body: (Database) throws -> T) throws -> T {
        let connection = try idle.withLock { $0.popLast() } ?? DatabaseQueue(path: path, configuration: configuration)
        defer { idle.withLock { $0.append(connection) } }
        return try connection.inDatabase { db in
            try db.cachedStatement(sql: "BEGIN DEFERRED TRANSACTION").execute()
            do {
                let value = try body(db)
                try db.cachedStatement(sql: "COMMIT TRANSACTION").execute()
                return value
            } catch {
                if db.isInsideTransaction { try? db.cachedStatement(sql: "ROLLBACK TRANSACTION").execute() }
                throw error
            }
        }
    }
}
