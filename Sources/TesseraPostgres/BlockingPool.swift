import Dispatch
import Synchronization
import TesseraLoop
import TesseraPostgresDriver

/// The connections for synchronous work, and the threads that run it.
final class BlockingPool: Sendable {
    private let conninfo: String
    private let size: Int
    private let connectTimeout: Duration
    private let statementTimeout: Duration
    /// Whose clocks time the waits for a connection.
    private let eventLoops: EventLoops
    private let queue = DispatchQueue(label: "tessera.postgres.transactions", attributes: .concurrent)
    private let state = Mutex(State())

    /// What a caller waiting for a connection is handed.
    private enum Handover: Sendable {
        case connection(BlockingConnectionBox)
        /// A slot came free: open a connection in it.
        case slot
        case timedOut
    }

    private struct State {
        var idle: [BlockingConnectionBox] = []
        var open = 0
        var waiting: [(id: Int, continuation: CheckedContinuation<Handover, Never>)] = []
        var nextWaiter = 0
    }

    init(conninfo: String, size: Int, connectTimeout: Duration, statementTimeout: Duration, eventLoops: EventLoops) {
        self.conninfo = conninfo
        self.size = size
        self.connectTimeout = connectTimeout
        self.statementTimeout = statementTimeout
        self.eventLoops = eventLoops
    }

    /// Runs `body` on one of the pool's threads.
    func run<T>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try body() }) }
        }
    }

    /// An idle connection, a new one, or the next one given back, until `deadline`.
    func lease(until deadline: ContinuousClock.Instant) async throws -> BlockingConnection {
        enum Next { case use(BlockingConnectionBox), open, wait }
        let next = state.withLock { state -> Next in
            if let idle = state.idle.popLast() { return .use(idle) }
            guard state.open < size else { return .wait }
            state.open += 1
            return .open
        }
        switch next {
        case .use(let box):
            box.connection.timeout = statementTimeout
            return box.connection
        case .open:
            return try await open()
        case .wait:
            switch await waitForLease(until: deadline) {
            case .connection(let box):
                box.connection.timeout = statementTimeout
                return box.connection
            case .slot:
                return try await open()
            case .timedOut:
                throw DatabaseUnavailable(reason: "all \(size) connections for transactions stayed busy")
            }
        }
    }

    private func open() async throws -> BlockingConnection {
        let conninfo = self.conninfo, timeout = connectTimeout, statementTimeout = self.statementTimeout
        do {
            return try await run {
                let connection = try BlockingConnection(conninfo: conninfo, timeout: timeout)
                connection.timeout = statementTimeout
                return BlockingConnectionBox(connection)
            }.connection
        } catch {
            slotFreed()
            throw DatabaseUnavailable(error)
        }
    }

    private func waitForLease(until deadline: ContinuousClock.Instant) async -> Handover {
        let expiry = Mutex<Expiry?>(nil)
        defer { expiry.withLock { $0?.cancel() } }
        return await withCheckedContinuation { continuation in
            let id = state.withLock { state in
                defer { state.nextWaiter += 1 }
                state.waiting.append((state.nextWaiter, continuation))
                return state.nextWaiter
            }
            // Started once the caller waits, so the deadline cannot pass before it is there to find.
            expiry.withLock {
                $0 = Expiry.after(max(.zero, deadline - .now), on: eventLoops.currentOrNext()) {
                    let waiter = self.state.withLock { state -> CheckedContinuation<Handover, Never>? in
                        guard let index = state.waiting.firstIndex(where: { $0.id == id }) else { return nil }
                        return state.waiting.remove(at: index).continuation
                    }
                    waiter?.resume(returning: .timedOut)
                }
            }
        }
    }

    /// A connection whose work ended: to the next caller waiting, else idle; a broken one is
    /// closed, and its slot goes to the next caller.
    func giveBack(_ connection: BlockingConnection) {
        guard !connection.isBroken else { return slotFreed() }
        let box = BlockingConnectionBox(connection)
        let waiter = state.withLock { state -> CheckedContinuation<Handover, Never>? in
            guard !state.waiting.isEmpty else {
                state.idle.append(box)
                return nil
            }
            return state.waiting.removeFirst().continuation
        }
        waiter?.resume(returning: .connection(box))
    }

    private func slotFreed() {
        let waiter = state.withLock { state -> CheckedContinuation<Handover, Never>? in
            guard !state.waiting.isEmpty else {
                state.open -= 1
                return nil
            }
            return state.waiting.removeFirst().continuation
        }
        waiter?.resume(returning: .slot)
    }

    /// Closes the idle connections; callers still waiting hear that none will come.
    func closeAll() {
        let waiting = state.withLock { state in
            defer {
                state.idle = []
                state.waiting = []
                state.open = 0
            }
            return state.waiting
        }
        for waiter in waiting { waiter.continuation.resume(returning: .timedOut) }
    }
}

/// A blocking connection handed between threads: used by one holder at a time.
final class BlockingConnectionBox: @unchecked Sendable {
    let connection: BlockingConnection
    init(_ connection: BlockingConnection) { self.connection = connection }
}
