import CLibPQ
import TesseraLoop

#if canImport(Glibc)
import Glibc
#endif

/// One PostgreSQL connection, lent for a unit of work that runs synchronously on the caller's
/// thread: a transaction's body, a migration.
///
/// Synchronous on purpose, as GRDB's `Database` is: the order transactions' bodies are
/// synchronous protocols that the SQLite stores share, and a body that cannot suspend cannot be
/// interleaved with another on the same connection. It waits for its answers with `poll`, so it
/// must run on a thread that may block: ``PostgresConnections`` runs such work on threads of its
/// own, never on an event loop. A statement unanswered within the timeout counts the
/// connection as lost: a peer that vanished without closing would otherwise hold it for good.
public final class BlockingConnection: @unchecked Sendable {
    // @unchecked: used by one holder at a time, which the pool hands it to and takes it back from.
    private let connection: OpaquePointer
    /// How long a statement may take before the connection is given up as lost.
    package var timeout: Duration
    package private(set) var isBroken = false

    /// A connection of the caller's own to `url`, outside any pool, made within `timeout`: for
    /// a tool or a test that must look from synchronous code, as another process would.
    public convenience init(url: PostgresURL, timeout: Duration) throws {
        try self.init(conninfo: url.conninfo, timeout: timeout)
    }

    /// Connects to `conninfo` within `timeout`.
    package init(conninfo: String, timeout: Duration) throws {
        guard let connection = PQconnectStart(conninfo) else { throw DatabaseUnavailable(reason: "libpq could not start a connection") }
        self.connection = connection
        self.timeout = timeout
        let deadline = ContinuousClock.now + timeout
        var polling = PGRES_POLLING_WRITING
        while true {
            guard PQstatus(connection) != CONNECTION_BAD, polling != PGRES_POLLING_FAILED else {
                throw DatabaseUnavailable(reason: LibPQ.message(connection))
            }
            if polling == PGRES_POLLING_OK { break }
            guard wait(for: polling == PGRES_POLLING_READING ? Int16(POLLIN) : Int16(POLLOUT), until: deadline) else {
                throw DatabaseUnavailable(reason: "no connection within the connect timeout")
            }
            polling = PQconnectPoll(connection)
        }
        guard PQsetnonblocking(connection, 1) == 0 else { throw DatabaseUnavailable(reason: LibPQ.message(connection)) }
    }

    deinit {
        PQfinish(connection)
    }

    /// The rows `query` returns, all of them.
    public func rows(_ query: PostgresQuery) throws -> [PostgresRow] {
        try run(query).rows
    }

    /// Runs a statement and returns how many rows it changed.
    @discardableResult
    public func execute(_ query: PostgresQuery) throws -> Int {
        try run(query).changed
    }

    private func run(_ query: PostgresQuery) throws -> LoopConnection.Answer {
        guard !isBroken else { throw DatabaseUnavailable(reason: "the connection is broken") }
        do {
            return try exchange(query)
        } catch let error as DatabaseUnavailable {
            isBroken = true
            throw error
        }
    }

    private func exchange(_ query: PostgresQuery) throws -> LoopConnection.Answer {
        try query.binds.checkSendable()
        let deadline = ContinuousClock.now + timeout
        let sent = LoopConnection.withParameters(query.binds) { count, types, values, lengths, formats in
            PQsendQueryParams(connection, query.sql, count, types, values, lengths, formats, 0) == 1
        }
        guard sent else { throw DatabaseUnavailable(reason: LibPQ.message(connection)) }
        while true {
            let flushed = PQflush(connection)
            if flushed == 0 { break }
            guard flushed == 1, wait(for: Int16(POLLOUT | POLLIN), until: deadline) else {
                throw DatabaseUnavailable(reason: flushed < 0 ? LibPQ.message(connection) : "the database did not answer in time")
            }
            if PQconsumeInput(connection) == 0 { throw DatabaseUnavailable(reason: LibPQ.message(connection)) }
        }
        var answer = LoopConnection.Answer()
        var failure: (any Error)?
        while true {
            while PQisBusy(connection) == 1 {
                guard LibPQ.hasDecryptedBytes(connection) || wait(for: Int16(POLLIN), until: deadline) else {
                    throw DatabaseUnavailable(reason: "the database did not answer in time")
                }
                guard PQconsumeInput(connection) == 1 else { throw DatabaseUnavailable(reason: LibPQ.message(connection)) }
            }
            guard let result = PQgetResult(connection) else { break }
            var kept = false
            defer { if !kept { PQclear(result) } }
            switch PQresultStatus(result) {
            case PGRES_TUPLES_OK:
                answer.result = PostgresResult(result)
                kept = true
            case PGRES_COMMAND_OK:
                answer.changed = LibPQ.changedRows(result)
            case PGRES_FATAL_ERROR where PQstatus(connection) == CONNECTION_BAD:
                throw DatabaseUnavailable(reason: LibPQ.message(connection))
            default:
                if failure == nil { failure = LibPQ.failure(of: result) }
            }
        }
        if let failure { throw failure }
        return answer
    }

    /// Waits until the socket is ready for `events`, or returns `false` at `deadline`.
    private func wait(for events: Int16, until deadline: ContinuousClock.Instant) -> Bool {
        var descriptor = pollfd(fd: PQsocket(connection), events: events, revents: 0)
        while true {
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { return false }
            let (seconds, attoseconds) = left.components
            let milliseconds = Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1)
            let ready = poll(&descriptor, 1, milliseconds)
            if ready > 0 { return true }
            if ready < 0, errno != EINTR { return false }
        }
    }
}
