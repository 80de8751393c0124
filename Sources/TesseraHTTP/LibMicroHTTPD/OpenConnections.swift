import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// One open connection, from accept to close: what the server needs to know about it between
/// requests, which libmicrohttpd does not track for us.
///
/// While it waits for a request head (from accept, and after each answer) it is in its loop's
/// head deadlines (``DaemonContext/headDeadlines``), which shut it down when the head is late.
final class OpenConnection: DeadlineListMember, @unchecked Sendable {
    // @unchecked: `deadlineLinks` is touched by its loop's list only, and `request` by its
    // libmicrohttpd callbacks only, both on that loop's thread.
    let socket: Int32
    let address: IPAddress?
    /// Over a connection cap when it was accepted: its request is answered with a 503.
    let isOverCap: Bool
    var deadlineLinks = DeadlineLinks()
    /// The request being read or answered on it, from its first line until it completes: an
    /// answer libmicrohttpd makes itself (``LibraryRefusal``) reaches the access log through it.
    /// Strong, and let go at completion: a weak reference would cost every request an allocation.
    var request: ConnectionRequest?

    init(socket: Int32, address: IPAddress?, isOverCap: Bool) {
        self.socket = socket
        self.address = address
        self.isOverCap = isOverCap
    }

    /// The request head is late. The socket is only shut down, not closed: libmicrohttpd sees
    /// the end, closes it and reports it on this same loop, so the descriptor cannot have been
    /// reused for another connection by now.
    func deadlinePassed() {
        shutdown(socket, Int32(SHUT_RDWR))
    }
}

/// Every open connection, with counts per client address, so that the server can answer
/// connections over a cap with a 503 rather than silence. Taken once per connection, not per
/// request: the caps span every loop.
///
/// libmicrohttpd's own caps are set a little above these (see ``Daemon``): below them, it
/// accepts and we answer; above them, it closes at once, which is all that is possible then.
final class OpenConnections: Sendable {
    private struct State {
        var count = 0
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
        state.withLock { state in
            var fromAddress = 0
            if let address {
                fromAddress = state.perAddress[address, default: 0] + 1
                state.perAddress[address] = fromAddress
            }
            let isCappedAddress = limitPerAddress > 0 && !(address.map(uncappedAddresses.contains) ?? false)
            let isOverCap = state.count >= limit || (isCappedAddress && fromAddress > limitPerAddress)
            state.count += 1
            return OpenConnection(socket: socket, address: address, isOverCap: isOverCap)
        }
    }

    /// The connection is closing; its socket is still open until this returns.
    func close(_ connection: OpenConnection) {
        state.withLock { state in
            state.count -= 1
            if let address = connection.address {
                let remaining = (state.perAddress[address] ?? 1) - 1
                state.perAddress[address] = remaining > 0 ? remaining : nil
            }
        }
    }

    var count: Int { state.withLock { $0.count } }
}
