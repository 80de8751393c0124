package import CLibPQ
import Foundation
package import TesseraLoop

/// One PostgreSQL connection on an event loop: libpq, non-blocking, in pipeline mode, its
/// socket waited on by the loop like the HTTP connections.
///
/// Each statement goes out with a Sync of its own, so statements from several requests queue on
/// the wire one after another without waiting for each other's answers, and one that fails ends
/// nothing but itself. A prepared statement is prepared once per connection, in the same
/// pipeline as its first use. Every method runs on the loop's thread, and the answers resume
/// their callers there.
///
/// What it holds is bounded (``PostgresQueueLimits``): at most a window of statements is on
/// the wire at once and the rest wait here, so a statement whose caller gave up before its turn
/// is never sent; past its share in all, another is refused at once with `DatabaseUnavailable`.
package final class LoopConnection: @unchecked Sendable {
    // @unchecked: used on its loop's thread only; the types that hold one keep it there.
    /// The outcome of one statement: its rows, and how many rows it changed.
    package struct Answer {
        /// The rows, read in place (a statement has one result with rows, at most).
        package var result: PostgresResult?
        package var changed = 0

        package init(result: PostgresResult? = nil, changed: Int = 0) {
            self.result = result
            self.changed = changed
        }

        package var rows: [PostgresRow] { result?.rows ?? [] }
    }

    /// One statement sent (or waiting for the connection to open), until its Sync comes back.
    private struct Unit {
        var waiter: StatementWaiter?
        var answer = Answer()
        var failure: (any Error)?
        /// The caller's patience; past it the caller hears `DatabaseUnavailable` and the answer,
        /// when it comes, is dropped.
        let deadline: ContinuousClock.Instant?
        /// When the unit went on the wire: the connection counts as lost if it is not answered
        /// within the statement timeout.
        var sentAt: ContinuousClock.Instant?
        /// The prepared statement this unit prepares, forgotten again if the unit fails.
        var preparing: String?
        /// The prepared statement this unit executes.
        var statement: String?
        /// Which unit a cancelled task's handler asks for.
        var id: UInt64 = 0
        /// Sent by ``keepAlive(every:)``, for no caller.
        var isHeartbeat = false
        /// Sends the unit once the connection is open; told whether to prepare its statement
        /// first, which is decided as it goes out, so that what went before (a Prepare that
        /// failed, a statement healed under a new name) counts.
        var send: ((OpaquePointer, _ prepareFirst: Bool) -> Bool)?

        /// Whether the unit may stay unsent: nobody waits for it (or its caller's patience has
        /// run out), and nothing else relies on it.
        func isAbandoned(at now: ContinuousClock.Instant) -> Bool {
            guard preparing == nil, !isHeartbeat else { return false }
            return waiter?.isWaiting != true || deadline.map { now >= $0 } == true
        }
    }

    private enum Phase {
        /// Waiting for the host's address, from a thread of the resolver's.
        case resolving(deadline: ContinuousClock.Instant)
        case connecting(deadline: ContinuousClock.Instant)
        case open
        case closed
    }

    package let loop: EventLoop
    private let statementTimeout: Duration
    private let limits: PostgresQueueLimits
    private var connection: OpaquePointer?
    private var registration: EventLoop.Registration?
    private var descriptor: Int32 = -1
    private var phase: Phase
    private var units: [Unit] = []
    /// The oldest unit not answered yet.
    private var head = 0
    /// The oldest unit not sent yet: every unit from `head` up to it is on the wire. An index,
    /// not a loop's range, because answers read while sending move and compact the queue.
    private var unsent = 0
    private var prepared: Set<String> = []
    /// When the statement now at the head of the queue got there (the one before it was answered).
    private var headSince = ContinuousClock.now
    /// The names `run(_:deadline:prepare:)` gave the texts it prepared, by text, then by the
    /// parameters' types (the same text bound with other types is another statement). Looked up
    /// without building a key, so a page's read costs no allocation to find its name.
    private var preparedQueries: [String: [PreparedQuery]] = [:]
    /// How many texts have names in ``preparedQueries``.
    private var preparedQueryCount = 0
    /// The names the ``PostgresPreparedStatement`` types run here are prepared under: looked up
    /// by the type's identity, which costs no allocation, as its name as text would.
    private var statementNames: [ObjectIdentifier: String] = [:]
    /// How many names this connection has given prepared statements: each name is new.
    private var namesGiven = 0
    /// The last unit's ``Unit/id``.
    private var lastUnitID: UInt64 = 0
    /// A cancel request is on its way to the server: nothing is sent until it is done.
    private var cancelling = false
    /// When a cancel request has waited too long.
    private var cancelTimer: LoopTimer?
    /// How many texts a connection prepares for `run`, at most.
    package static let preparedQueryLimit = 256

    private struct PreparedQuery {
        let types: [UInt32]
        var name: String
    }
    private var writing = false
    /// ``keepAlive(every:)``'s timer.
    private var heartbeat: LoopTimer?
    /// While resolving, when the connect timeout or a caller's patience runs out: there is no
    /// socket yet whose registration the loop would ask.
    private var resolvingTimer: LoopTimer?
    /// No caller's patience ends before this: the soonest deadline queued since the waiters
    /// were last walked. It may be early (that caller was answered), never late, so the timer
    /// is set in O(1) rather than by walking every queued statement; a timer that finds nobody
    /// due walks them once and sets it again.
    private var soonestPatience: ContinuousClock.Instant?
    /// The timer for the connection's soonest deadline (``soonestDeadline``), and when it is set for.
    private var deadlineTimer: (timer: LoopTimer, at: ContinuousClock.Instant)?
    /// Made once, so that setting the timer again allocates nothing.
    private lazy var deadlineCame: () -> Void = { [weak self] in
        guard let self else { return }
        deadlineTimer = nil
        deadlinePassed()
        setDeadlineTimer()
    }
    /// Hears every `NOTIFY` the connection receives (a listener's).
    package var notified: ((String, String) -> Void)?
    /// Hears the connection close, with why; the pool drops it.
    package var closedBecause: ((any Error) -> Void)?

    /// Statements sent or waiting, not answered yet.
    package var inFlight: Int { units.count - head }
    /// Whether another statement may be queued here (``PostgresQueueLimits/perConnection``).
    package var hasRoom: Bool { inFlight < limits.perConnection }
    /// Since when the oldest statement not answered yet (the one the others queue behind) has
    /// been the database's to answer: sent, and every statement before it answered.
    package var oldestSentAt: ContinuousClock.Instant? {
        guard head < units.count, let sentAt = units[head].sentAt else { return nil }
        return max(sentAt, headSince)
    }
    package var isOpen: Bool { if case .open = phase { true } else { false } }
    package var isClosed: Bool { if case .closed = phase { true } else { false } }

    /// Starts connecting to `address` at once (resolving its host name off the loop first);
    /// statements may be sent meanwhile, and go out once it is open. On the loop's thread.
    package init(
        address: PostgresAddress, loop: EventLoop, connectTimeout: Duration, statementTimeout: Duration,
        limits: PostgresQueueLimits = PostgresQueueLimits()
    ) {
        self.loop = loop
        self.statementTimeout = statementTimeout
        self.limits = limits
        let deadline = ContinuousClock.now + connectTimeout
        guard let name = address.hostName else {
            phase = .connecting(deadline: deadline)
            start(conninfo: address.conninfo)
            return
        }
        phase = .resolving(deadline: deadline)
        armResolvingTimer()
        // Held until the answer comes (a closed connection ignores it): a lookup ends, at the
        // latest when the resolver's own timeout does.
        address.resolver.resolve(name) { [loop] answer in
            loop.execute { self.resolved(answer, address: address) }
        }
    }

    private func start(conninfo: String) {
        connection = PQconnectStart(conninfo)
        guard let connection, PQstatus(connection) != CONNECTION_BAD else {
            close(failingUnansweredWith: DatabaseUnavailable(reason: connection.map(LibPQ.message) ?? "libpq could not start a connection"))
            return
        }
        advanceConnecting(polling: PGRES_POLLING_WRITING)
        setDeadlineTimer()
    }

    private func resolved(_ answer: HostResolver.Answer, address: PostgresAddress) {
        guard case .resolving(let deadline) = phase else { return }  // closed meanwhile
        if let resolvingTimer { loop.cancel(resolvingTimer) }
        resolvingTimer = nil
        switch answer {
        case .failure(let error):
            close(failingUnansweredWith: error)
        case .success(let hostAddress):
            phase = .connecting(deadline: deadline)
            start(conninfo: address.conninfo(at: hostAddress))
        }
    }

    /// Sets the resolving timer to the connect timeout or the soonest caller's patience.
    private func armResolvingTimer() {
        guard case .resolving(let deadline) = phase else { return }
        let soonest = min(deadline, soonestPatience ?? deadline)
        if let resolvingTimer { loop.cancel(resolvingTimer) }
        resolvingTimer = loop.schedule(after: max(.zero, ContinuousClock.now.duration(to: soonest))) { [weak self] in
            self?.resolvingTimerFired()
        }
    }

    private func resolvingTimerFired() {
        resolvingTimer = nil
        guard case .resolving(let deadline) = phase else { return }
        let now = ContinuousClock.now
        if now >= deadline {
            return close(failingUnansweredWith: DatabaseUnavailable(reason: "no address for the database's host within the connect timeout"))
        }
        expireWaiters(at: now)
        armResolvingTimer()
    }

    deinit {
        if let connection { PQfinish(connection) }
    }

    // MARK: Statements

    /// Runs `query` with a Sync of its own and returns its answer, on the loop's thread.
    ///
    /// With `prepare`, the text is prepared on this connection the first time it comes (with
    /// the same parameter types), and only bound and executed after that, as a driver's statement
    /// cache does: a page's query built from a few fixed shapes is parsed and planned once per
    /// connection, not per request. A text that varies per request (a trace's comment) must not
    /// ask for it; past ``preparedQueryLimit`` texts, the rest run unprepared.
    package func run(_ query: PostgresQuery, deadline: ContinuousClock.Instant?, prepare: Bool = false) async throws -> Answer {
        try query.binds.checkSendable()
        if prepare {
            let values = query.binds.values
            let name =
                preparedQueries[query.sql]?.first(where: { $0.types.elementsEqual(values.lazy.map(\.type)) })?.name
                ?? {
                    guard preparedQueryCount < Self.preparedQueryLimit else { return nil }
                    let name = newName()
                    preparedQueries[query.sql, default: []].append(PreparedQuery(types: values.map(\.type), name: name))
                    preparedQueryCount += 1
                    return name
                }()
            if let name { return try await runPrepared(name: name, sql: query.sql, binds: query.binds, deadline: deadline) }
        }
        return try await answer { waiter in
            Unit(
                waiter: waiter, deadline: deadline,
                send: { connection, _ in
                    Self.withParameters(query.binds) { count, types, values, lengths, formats in
                        PQsendQueryParams(connection, query.sql, count, types, values, lengths, formats, 0) == 1
                    }
                })
        }
    }

    /// Queues the unit `make` makes and waits for its answer. A cancelled task stops waiting at
    /// once, with `CancellationError`, and its statement, if not sent yet, never is.
    private func answer(_ make: (StatementWaiter) -> Unit) async throws -> Answer {
        lastUnitID &+= 1
        let id = lastUnitID
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { waiter in
                guard !Task.isCancelled else { return waiter.resume(throwing: CancellationError()) }
                var unit = make(.one(waiter))
                unit.id = id
                enqueue(unit)
            }
        } onCancel: {
            loop.execute { self.cancelUnit(id) }
        }
    }

    private func cancelUnit(_ id: UInt64) {
        guard let index = units[head...].firstIndex(where: { $0.id == id }), let waiter = units[index].waiter else { return }
        units[index].waiter = nil
        waiter.resume(throwing: CancellationError())
        // Drops what is abandoned now, each waiter past its patience told first.
        expireWaiters(at: .now)
        cancelAbandonedWork()
    }

    /// When nobody waits for anything on the wire any more (their callers' patience ran out, or
    /// their tasks were cancelled), asks the server to cancel what it runs, so that the last
    /// statements of a flood do not keep the database busy for nobody. Only then: a cancel
    /// request stops whatever the session runs when it arrives, which must not be a statement
    /// someone waits for, so nothing more is sent until the request is done. libpq 15's cancel
    /// blocks for a round trip, so it runs on a thread of its own, one per connection at most.
    private func cancelAbandonedWork() {
        guard isOpen, !cancelling, head < unsent, let connection else { return }
        // A Prepare among them may be cancelled too: statements not sent yet decide as they go
        // whether to prepare, and those on the wire behind it wait for nobody either.
        guard units[head..<unsent].allSatisfy({ $0.waiter?.isWaiting != true && !$0.isHeartbeat }) else { return }
        guard let request = PQgetCancel(connection) else { return }
        cancelling = true
        // libpq 15's cancel has no timeout of its own: a request unanswered for the statement
        // timeout counts the connection as lost, as an unanswered statement does.
        cancelTimer = loop.schedule(after: statementTimeout) { [weak self] in
            guard let self, cancelling else { return }
            close(failingUnansweredWith: DatabaseUnavailable(reason: "the database did not answer a cancel request in time"))
        }
        let cancel = CancelRequest(pointer: request)
        Thread.detachNewThread { [loop] in
            cancel.send()
            loop.execute { self.cancelDone() }
        }
    }

    private func cancelDone() {
        guard cancelling else { return }
        cancelling = false
        if let cancelTimer { loop.cancel(cancelTimer) }
        cancelTimer = nil
        sendWaiting()
        setDeadlineTimer()
    }

    /// Runs `Statement`, prepared on this connection the first time it comes, with a Sync of its
    /// own, on the loop's thread.
    package func runPrepared<Statement: PostgresPreparedStatement>(
        _: Statement.Type, binds: PostgresBindings, deadline: ContinuousClock.Instant?
    ) async throws -> Answer {
        try await runPrepared(name: statementName(Statement.self), sql: Statement.sql, binds: binds, deadline: deadline)
    }

    private func statementName<Statement: PostgresPreparedStatement>(_: Statement.Type) -> String {
        let key = ObjectIdentifier(Statement.self)
        if let name = statementNames[key] { return name }
        let name = newName()
        statementNames[key] = name
        return name
    }

    /// A name no statement of this connection had: a counter, never a statement's type or SQL,
    /// so it is at most 28 bytes (`tessera_` and an `Int`), well under PostgreSQL's 63
    /// (`NAMEDATALEN` − 1), past which the server cuts names and two would collide.
    private func newName() -> String {
        namesGiven += 1
        return "tessera_\(namesGiven)"
    }

    /// A prepared statement the server refused to run because of how it was prepared: the next
    /// use prepares it again, so a rolling deploy or a pooler costs one failed statement, not a
    /// connection that fails the statement until it is replaced.
    /// - 26000: the session no longer has it (a pooler's `DISCARD ALL`, or a Prepare that
    ///   failed while others were queued behind it);
    /// - 0A000: its plan no longer fits (`cached plan must not change result type`, after a
    ///   migration changed a table under `SELECT *`), and the old one still exists.
    /// Either way it is prepared anew under another name.
    private func heal(_ name: String, after error: PostgresError) {
        let mustRename =
            switch error.sqlState {
            case "26000": true
            case "0A000": error.message.hasPrefix("cached plan must not change result type")
            default: false
            }
        // A new name whatever went wrong, so that healing twice (statements queued under the old
        // name fail the same way) changes nothing more, and no Prepare meets an old one's name.
        guard mustRename else { return }
        if let key = statementNames.first(where: { $0.value == name })?.key {
            statementNames[key] = newName()
        } else {
            for (sql, queries) in preparedQueries {
                guard let index = queries.firstIndex(where: { $0.name == name }) else { continue }
                preparedQueries[sql]?[index].name = newName()
                return
            }
        }
    }

    /// Runs the prepared statement `name` (preparing it with `sql` first on this connection),
    /// with a Sync of its own, on the loop's thread.
    package func runPrepared(name: String, sql: String, binds: PostgresBindings, deadline: ContinuousClock.Instant?) async throws -> Answer {
        try binds.checkSendable()
        return try await answer { waiter in preparedUnit(name: name, sql: sql, binds: binds, waiter: waiter, deadline: deadline) }
    }

    /// Runs `Statement` once for each of `binds`, all queued at once, each with a Sync of its
    /// own, and returns their answers in order when the last has come: one wait for the
    /// caller, not one task per statement. The first failure fails the batch; the statements
    /// not sent by then are dropped.
    package func runPreparedBatch<Statement: PostgresPreparedStatement>(
        _: Statement.Type, binds: [PostgresBindings], deadline: ContinuousClock.Instant?
    ) async throws -> [Answer] {
        guard !binds.isEmpty else { return [] }
        for bind in binds { try bind.checkSendable() }
        let name = statementName(Statement.self)
        let batch = StatementBatch(count: binds.count)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { waiter in
                guard !Task.isCancelled else { return waiter.resume(throwing: CancellationError()) }
                batch.start(waiter)
                for (index, bind) in binds.enumerated() where batch.isWaiting {
                    enqueue(preparedUnit(name: name, sql: Statement.sql, binds: bind, waiter: .place(index, in: batch), deadline: deadline))
                }
            }
        } onCancel: {
            loop.execute { batch.fail(CancellationError()) }
        }
    }

    private func preparedUnit(
        name: String, sql: String, binds: PostgresBindings, waiter: StatementWaiter, deadline: ContinuousClock.Instant?
    )
        -> Unit
    {
        return Unit(
            waiter: waiter, deadline: deadline, statement: name,
            send: { connection, prepareFirst in
                Self.withParameters(binds) { count, types, values, lengths, formats in
                    if prepareFirst, PQsendPrepare(connection, name, sql, count, types) != 1 { return false }
                    return PQsendQueryPrepared(connection, name, count, values, lengths, formats, 0) == 1
                }
            })
    }

    private func enqueue(_ unit: Unit) {
        let refusal =
            isClosed ? "the connection is closed" : hasRoom ? nil : "\(inFlight) statements already wait on one connection"
        if let refusal {
            unit.waiter?.resume(throwing: DatabaseUnavailable(reason: refusal))
            return
        }
        if let patience = unit.deadline { soonestPatience = min(soonestPatience ?? patience, patience) }
        units.append(unit)
        if case .resolving = phase { return armResolvingTimer() }
        sendWaiting()
        setDeadlineTimer()
    }

    /// Sends the waiting units while the window has room, oldest first, flushing after each
    /// round (a flush may read answers, which makes room again). A unit whose caller has gone
    /// is dropped unsent: nobody waits for its answer. Whether a unit prepares its statement is
    /// decided here, as it goes out, so no unit relies on one that was dropped.
    private func sendWaiting() {
        while let connection, isOpen, !cancelling, unsent < units.count, unsent - head < limits.window {
            let now = ContinuousClock.now
            while unsent < units.count, unsent - head < limits.window {
                if units[unsent].isAbandoned(at: now) {
                    let dropped = units.remove(at: unsent)
                    dropped.waiter?.resume(throwing: DatabaseUnavailable(reason: "no answer in the request's patience"))
                    continue
                }
                guard let send = units[unsent].send else { break }
                var prepareFirst = false
                if let name = units[unsent].statement, !prepared.contains(name) {
                    prepared.insert(name)
                    units[unsent].preparing = name
                    prepareFirst = true
                }
                units[unsent].send = nil
                units[unsent].sentAt = now
                unsent += 1
                guard send(connection, prepareFirst), PQpipelineSync(connection) == 1 else {
                    return close(failingUnansweredWith: DatabaseUnavailable(reason: LibPQ.message(connection)))
                }
            }
            flush()
        }
    }

    // MARK: The socket

    /// libpq's cancel request for one connection, sent from another thread and freed there.
    private struct CancelRequest: @unchecked Sendable {
        // @unchecked: used by one thread, once, after the loop made it.
        let pointer: OpaquePointer

        func send() {
            var message = [CChar](repeating: 0, count: 256)
            _ = PQcancel(pointer, &message, Int32(message.count))
            PQfreeCancel(pointer)
        }
    }

    private func readiness(_ events: EventLoop.IOEvents) {
        guard let connection else { return }
        switch phase {
        case .closed, .resolving:
            return
        case .connecting:
            advanceConnecting(polling: PQconnectPoll(connection))
        case .open:
            if !events.isDisjoint(with: [.readable, .failed]) {
                guard consumeInput(connection) else { return close(failingUnansweredWith: DatabaseUnavailable(reason: LibPQ.message(connection))) }
                deliverNotifications()
            }
            if writing || events.contains(.writable) { flush() }
            cancelAbandonedWork()
            sendWaiting()
        }
        setDeadlineTimer()
    }

    /// Reads what arrived, and every result it completes. Over TLS, OpenSSL may keep decrypted
    /// bytes of a record that libpq's buffer had no room for; the socket will never announce
    /// them again, so they are read now. (libpq makes room for at least 8 KiB on each read, so
    /// every round takes some; the bound only keeps a library bug from becoming a busy loop.)
    private func consumeInput(_ connection: OpaquePointer) -> Bool {
        for _ in 0..<4096 {
            guard PQconsumeInput(connection) == 1 else { return false }
            readResults(connection)
            guard LibPQ.hasDecryptedBytes(connection) else { return true }
        }
        return true
    }

    private func advanceConnecting(polling: PostgresPollingStatusType) {
        guard let connection else { return }
        let socket = PQsocket(connection)
        if socket != descriptor {
            if let registration { loop.deregister(registration) }
            registration = nil
            descriptor = socket
            if socket >= 0 {
                // Weak: the loop runs on if this connection is dropped unclosed.
                registration = loop.register(socket, events: .writable) { [weak self] in self?.readiness($0) }
            }
        }
        switch polling {
        case PGRES_POLLING_OK:
            guard PQsetnonblocking(connection, 1) == 0, PQenterPipelineMode(connection) == 1 else {
                return close(failingUnansweredWith: DatabaseUnavailable(reason: LibPQ.message(connection)))
            }
            phase = .open
            if let registration { loop.modify(registration, events: .readable) }
            sendWaiting()
        case PGRES_POLLING_READING:
            if let registration { loop.modify(registration, events: .readable) }
        case PGRES_POLLING_WRITING:
            if let registration { loop.modify(registration, events: .writable) }
        default:
            close(failingUnansweredWith: DatabaseUnavailable(reason: LibPQ.message(connection)))
        }
    }

    private func flush() {
        guard let connection, isOpen else { return }
        switch PQflush(connection) {
        case 0:
            if writing, let registration { loop.modify(registration, events: .readable) }
            writing = false
        case 1:
            if !writing, let registration { loop.modify(registration, events: [.readable, .writable]) }
            writing = true
            // While its send buffer is full, libpq reads what the server sent into its own
            // buffer (and OpenSSL may hold the rest of a record), and the socket may then never
            // be readable for it again: take it now.
            guard consumeInput(connection) else { return close(failingUnansweredWith: DatabaseUnavailable(reason: LibPQ.message(connection))) }
            deliverNotifications()
        default:
            close(failingUnansweredWith: DatabaseUnavailable(reason: LibPQ.message(connection)))
        }
    }

    /// Every result that has arrived, each Sync ending its unit.
    private func readResults(_ connection: OpaquePointer) {
        while head < unsent, PQisBusy(connection) == 0 {
            guard let result = PQgetResult(connection) else { continue }  // the end of one statement's results
            var kept = false
            defer { if !kept { PQclear(result) } }
            switch PQresultStatus(result) {
            case PGRES_TUPLES_OK, PGRES_SINGLE_TUPLE:
                // Kept for the caller to read in place; rows nobody waits for any more are not.
                if units[head].waiter?.isWaiting == true {
                    units[head].answer.result = PostgresResult(result)
                    kept = true
                }
            case PGRES_COMMAND_OK where units[head].preparing != nil:
                // The Prepare's own answer, which comes first: the statement exists now, whatever
                // becomes of this execution.
                units[head].preparing = nil
            case PGRES_COMMAND_OK:
                units[head].answer.changed = LibPQ.changedRows(result)
            case PGRES_PIPELINE_SYNC:
                finishHead()
            case PGRES_PIPELINE_ABORTED:
                break  // after a failed statement of the same unit, which holds the error
            default:
                if units[head].failure == nil { units[head].failure = LibPQ.failure(of: result) }
            }
        }
    }

    private func finishHead() {
        let unit = units[head]
        head += 1
        headSince = .now
        if head == units.count {
            units.removeAll(keepingCapacity: true)
            head = 0
            unsent = 0
            soonestPatience = nil
            // Nothing left to time: an idle connection sleeps without a timer.
            cancelDeadlineTimer()
        } else if head > 64, head * 2 > units.count {
            units.removeFirst(head)
            unsent -= head
            head = 0
        }
        if let failure = unit.failure {
            // A Prepare that failed made nothing (unless the name was taken: then it exists).
            if let name = unit.preparing, (failure as? PostgresError)?.sqlState != "42P05" { prepared.remove(name) }
            if let name = unit.statement, let error = failure as? PostgresError { heal(name, after: error) }
            unit.waiter?.resume(throwing: failure)
        } else {
            unit.waiter?.resume(returning: unit.answer)
        }
    }

    /// A listener's handler may close the connection: it is looked up again for each one.
    private func deliverNotifications() {
        while let connection, let notification = PQnotifies(connection) {
            let channel = String(cString: notification.pointee.relname)
            let payload = String(cString: notification.pointee.extra)
            PQfreemem(notification)
            notified?(channel, payload)
        }
    }

    // MARK: Deadlines

    /// The soonest of this connection's deadlines, while connecting or open: the connect
    /// timeout or the statement timeout of the oldest statement, and the callers' patience
    /// (while connecting too: a connection that takes its connect timeout must not hold a
    /// request past its own).
    private var soonestDeadline: ContinuousClock.Instant? {
        var soonest: ContinuousClock.Instant?
        switch phase {
        case .closed, .resolving:
            return nil
        case .connecting(let deadline):
            soonest = deadline
        case .open:
            soonest = headAnswerDeadline
        }
        if let patience = soonestPatience { soonest = min(soonest ?? patience, patience) }
        return soonest
    }

    /// Sets the timer for ``soonestDeadline``, unless it is set for then or sooner already: a
    /// timer that comes too early finds nothing due and is set again, so a statement that goes
    /// out or is answered costs a comparison, not a timer.
    private func setDeadlineTimer() {
        guard let soonest = soonestDeadline else { return }
        if let deadlineTimer {
            guard soonest < deadlineTimer.at else { return }
            loop.cancel(deadlineTimer.timer)
        }
        deadlineTimer = (loop.schedule(after: max(.zero, ContinuousClock.now.duration(to: soonest)), deadlineCame), soonest)
    }

    private func cancelDeadlineTimer() {
        if let deadlineTimer { loop.cancel(deadlineTimer.timer) }
        deadlineTimer = nil
    }

    /// A deadline may have come. Callers past their patience hear `DatabaseUnavailable` (their
    /// statement goes on, and its answer is dropped); a connection not open within the connect
    /// timeout, or a statement unanswered for the statement timeout, means the connection is lost.
    private func deadlinePassed() {
        let now = ContinuousClock.now
        switch phase {
        case .closed, .resolving:
            return
        case .connecting(let deadline):
            if now >= deadline { return close(failingUnansweredWith: DatabaseUnavailable(reason: "no connection within the connect timeout")) }
            expireWaiters(at: now)
        case .open:
            if let answerBy = headAnswerDeadline, now >= answerBy {
                return close(failingUnansweredWith: DatabaseUnavailable(reason: "the database did not answer in time"))
            }
            expireWaiters(at: now)
            cancelAbandonedWork()
            sendWaiting()
        }
    }

    /// When the oldest unanswered statement must have its answer: the statement timeout from
    /// when it went out or, if it queued behind others, from when they were answered.
    private var headAnswerDeadline: ContinuousClock.Instant? {
        oldestSentAt.map { $0 + statementTimeout }
    }

    /// Callers past their patience hear `DatabaseUnavailable`. Their statements on the wire go
    /// on (their answers are dropped); those not sent yet are dropped now.
    private func expireWaiters(at now: ContinuousClock.Instant) {
        soonestPatience = nil
        for index in head..<units.count {
            guard let deadline = units[index].deadline, units[index].waiter?.isWaiting == true else { continue }
            if now >= deadline {
                let waiter = units[index].waiter
                units[index].waiter = nil
                waiter?.resume(throwing: DatabaseUnavailable(reason: "no answer in the request's patience"))
            } else {
                soonestPatience = min(soonestPatience ?? deadline, deadline)
            }
        }
        units[unsent...].removeAll { $0.isAbandoned(at: now) }
    }

    // MARK: Heartbeat

    /// Sends `SELECT 1` whenever the connection has had nothing on the wire for `interval`, so
    /// that a connection nobody else sends on (a listener's) finds out when its peer has gone
    /// silent, as after a network partition that closed nothing: unanswered within the
    /// statement timeout, the heartbeat closes the connection, as any statement would.
    package func keepAlive(every interval: Duration) {
        guard !isClosed else { return }
        if let heartbeat { loop.cancel(heartbeat) }
        heartbeat = loop.schedule(after: interval, repeating: interval) { [weak self] in
            guard let self, isOpen, inFlight == 0 else { return }
            enqueue(
                Unit(
                    waiter: nil, deadline: nil, isHeartbeat: true,
                    send: { connection, _ in PQsendQueryParams(connection, "SELECT 1", 0, nil, nil, nil, nil, 0) == 1 }))
        }
    }

    // MARK: Closing

    /// Closes the connection, for good or because it broke: every statement not answered yet
    /// fails with `error`.
    package func close(failingUnansweredWith error: any Error) {
        guard !isClosed else { return }
        phase = .closed
        if let registration { loop.deregister(registration) }
        registration = nil
        if let heartbeat { loop.cancel(heartbeat) }
        heartbeat = nil
        if let resolvingTimer { loop.cancel(resolvingTimer) }
        resolvingTimer = nil
        if let cancelTimer { loop.cancel(cancelTimer) }
        cancelTimer = nil
        cancelDeadlineTimer()
        let waiting = units[head...]
        units = []
        head = 0
        unsent = 0
        soonestPatience = nil
        for unit in waiting { unit.waiter?.resume(throwing: error) }
        if let connection { PQfinish(connection) }
        connection = nil
        closedBecause?(error)
    }

    /// Closes the connection: statements not answered yet fail, and none may be sent after.
    package func close() {
        close(failingUnansweredWith: DatabaseUnavailable(reason: "the connection was closed"))
    }

    // MARK: libpq's C arguments

    /// Calls `body` with libpq's arrays for `binds`: their types, bytes (each text value
    /// followed by a NUL), lengths and formats. The arrays are on the stack when they are small
    /// (a page's few parameters), so a statement costs them no allocation; libpq copies them
    /// into its own buffer before `body` returns.
    package static func withParameters<T>(
        _ binds: PostgresBindings,
        _ body: (Int32, UnsafePointer<Oid>?, UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<Int32>?, UnsafePointer<Int32>?) -> T
    ) -> T {
        let values = binds.values
        guard !values.isEmpty else { return body(0, nil, nil, nil, nil) }
        let count = values.count
        let bytesInAll = values.reduce(0) { $0 + ($1.bytes?.count ?? 0) + 1 }
        return withUnsafeTemporaryAllocation(of: Oid.self, capacity: count) { types in
            withUnsafeTemporaryAllocation(of: Int32.self, capacity: 2 * count) { lengthsAndFormats in
                withUnsafeTemporaryAllocation(of: UnsafePointer<CChar>?.self, capacity: count) { pointers in
                    withUnsafeTemporaryAllocation(of: CChar.self, capacity: bytesInAll) { storage in
                        var offset = 0
                        for (index, value) in values.enumerated() {
                            types[index] = Oid(value.type)
                            lengthsAndFormats[index] = Int32(value.bytes?.count ?? 0)
                            lengthsAndFormats[count + index] = value.isBinary ? 1 : 0
                            guard let bytes = value.bytes else {
                                pointers[index] = nil
                                continue
                            }
                            let start = storage.baseAddress! + offset
                            bytes.withUnsafeBytes { raw in
                                if let source = raw.baseAddress { UnsafeMutableRawPointer(start).copyMemory(from: source, byteCount: raw.count) }
                            }
                            start[bytes.count] = 0
                            pointers[index] = UnsafePointer(start)
                            offset += bytes.count + 1
                        }
                        let lengths = UnsafePointer(lengthsAndFormats.baseAddress!)
                        return body(Int32(count), UnsafePointer(types.baseAddress!), UnsafePointer(pointers.baseAddress!), lengths, lengths + count)
                    }
                }
            }
        }
    }

}
