import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// One open connection, from accept to close: what the server needs to know about it between
/// requests, which libmicrohttpd does not track for us.
final class OpenConnection: Sendable {
    let socket: Int32
    let address: IPAddress?
    /// Over a connection cap when it was accepted: its request is answered with a 503.
    let isOverCap: Bool
    /// When the connection started waiting for a request head (on accept, and after each
    /// answer), in nanoseconds of the monotonic clock; 0 while a request is being handled.
    private let headWaitStarted: Atomic<Int64>

    init(socket: Int32, address: IPAddress?, isOverCap: Bool, now: Int64) {
        self.socket = socket
        self.address = address
        self.isOverCap = isOverCap
        headWaitStarted = Atomic(now)
    }

    /// The head of a request has arrived: the head deadline no longer applies.
    func headArrived() {
        headWaitStarted.store(0, ordering: .relaxed)
    }

    /// An answer is done: the connection waits for the next head.
    func awaitNextHead() {
        headWaitStarted.store(MonotonicClock.nanoseconds(), ordering: .relaxed)
    }

    func isWaitingForHead(since cutoff: Int64) -> Bool {
        let started = headWaitStarted.load(ordering: .relaxed)
        return started != 0 && started < cutoff
    }
}

/// Every open connection, with counts per client address, so that the server can answer
/// connections over a cap with a 503 rather than silence, and cut off clients that take too
/// long to send a request head.
///
/// libmicrohttpd's own caps are set a little above these (see ``Daemon``): below them, it
/// accepts and we answer; above them, it closes at once, which is all that is possible then.
final class OpenConnections: Sendable {
    private struct State {
        var connections: [ObjectIdentifier: OpenConnection] = [:]
        var perAddress: [IPAddress: Int] = [:]
    }

    private let state = Mutex(State())
    let limit: Int
    let limitPerAddress: Int
    /// Addresses without a per-address cap: trusted proxies, through which every client comes.
    let uncappedAddresses: Set<IPAddress>

    init(limit: Int, limitPerAddress: Int, uncappedAddresses: Set<IPAddress>) {
        self.limit = limit
        self.limitPerAddress = limitPerAddress
        self.uncappedAddresses = uncappedAddresses
    }

    /// How many connections past a cap of `limit` are still accepted, to be answered 503.
    static func overflow(of limit: Int) -> Int {
        max(8, limit / 16)
    }

    /// A connection was accepted: registers it, and says whether it is over a cap.
    func open(socket: Int32, address: IPAddress?) -> OpenConnection {
        let now = MonotonicClock.nanoseconds()
        return state.withLock { state in
            var fromAddress = 0
            if let address {
                fromAddress = state.perAddress[address, default: 0] + 1
                state.perAddress[address] = fromAddress
            }
            let isCappedAddress = limitPerAddress > 0 && !(address.map(uncappedAddresses.contains) ?? false)
            let isOverCap = state.connections.count >= limit || (isCappedAddress && fromAddress > limitPerAddress)
            let connection = OpenConnection(socket: socket, address: address, isOverCap: isOverCap, now: now)
            state.connections[ObjectIdentifier(connection)] = connection
            return connection
        }
    }

    /// The connection is closing; its socket is still open until this returns.
    func close(_ connection: OpenConnection) {
        state.withLock { state in
            state.connections[ObjectIdentifier(connection)] = nil
            if let address = connection.address {
                let remaining = (state.perAddress[address] ?? 1) - 1
                state.perAddress[address] = remaining > 0 ? remaining : nil
            }
        }
    }

    /// Shuts down every connection that has waited for a request head since before `cutoff`,
    /// and returns how many. The socket is only shut down, not closed: libmicrohttpd sees the
    /// end, closes it and reports it through ``close(_:)``, which cannot run meanwhile, since
    /// this holds the lock. So the descriptor cannot have been reused for another connection.
    func cutOffSlowHeads(waitingSince cutoff: Int64) -> Int {
        state.withLock { state in
            var count = 0
            for connection in state.connections.values where connection.isWaitingForHead(since: cutoff) {
                shutdown(connection.socket, Int32(SHUT_RDWR))
                connection.headArrived()  // not waiting any more: it is cut off once
                count += 1
            }
            return count
        }
    }

    var count: Int { state.withLock { $0.connections.count } }
}

/// The monotonic clock in nanoseconds: cheap to read and to keep in an atomic.
enum MonotonicClock {
    static func nanoseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }
}
