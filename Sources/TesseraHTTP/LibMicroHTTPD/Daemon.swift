import CTesseraShim
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The server's libmicrohttpd daemons: one on each event loop, with no thread of its own, all
/// accepting from one listening socket. A connection stays on the loop that accepted it, and so
/// do its requests' tasks.
final class Daemons: Sendable {
    let port: Int
    private let listener: Int32
    private let daemons: [Daemon]

    struct StartError: Error, CustomStringConvertible {
        var description: String
    }

    init(core: ServerCore, configuration: HTTPServerConfiguration, loops: [EventLoop]) throws {
        var errorBuffer = [CChar](repeating: 0, count: 256)
        func startError() -> StartError {
            StartError(description: String(decoding: errorBuffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        var boundPort: UInt16 = 0
        var isIPv6: Int32 = 0
        let listener = configuration.host.withCString { host in
            tessera_listen(host, UInt16(clamping: configuration.port), 1024, &boundPort, &isIPv6, &errorBuffer, errorBuffer.count)
        }
        guard listener >= 0 else { throw startError() }
        var started: [Daemon] = []
        for loop in loops {
            let context = DaemonContext(core: core, loop: loop)
            let retained = Unmanaged.passRetained(context)
            var options = Self.options(core: core, configuration: configuration, daemonCount: loops.count, retained: retained)
            options.listen_socket = listener
            options.is_ipv6 = isIPv6
            guard let handle = tessera_mhd_start(&options, &errorBuffer, errorBuffer.count) else {
                retained.release()
                for daemon in started { daemon.stopNow() }
                close(listener)
                throw startError()
            }
            started.append(Daemon(handle: handle, context: retained))
        }
        self.listener = listener
        self.daemons = started
        self.port = Int(boundPort)
        for daemon in started { daemon.attach() }
    }

    private static func options(
        core: ServerCore, configuration: HTTPServerConfiguration, daemonCount: Int,
        retained: Unmanaged<DaemonContext>
    ) -> tessera_daemon_options {
        let limits = configuration.limits
        var options = tessera_daemon_options()
        options.flags = UInt32(MHD_USE_EPOLL.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue | MHD_USE_ERROR_LOG.rawValue | MHD_USE_TURBO.rawValue)
        // Our caps answer 503 (``OpenConnections``); libmicrohttpd's, a little higher, close at
        // once. Each daemon holds its share of the connections.
        let cap = core.connections
        let total = cap.limit + OpenConnections.overflow(of: cap.limit)
        options.connection_limit = UInt32((total + daemonCount - 1) / daemonCount)
        options.per_ip_connection_limit =
            cap.limitPerAddress > 0 && cap.uncappedAddresses.isEmpty
            ? UInt32(cap.limitPerAddress + OpenConnections.overflow(of: cap.limitPerAddress)) : 0
        options.connection_notified = DaemonCallbacks.connectionNotified
        options.connection_notified_cls = retained.toOpaque()
        options.connection_timeout_seconds = UInt32(max(1, limits.idleTimeout.components.seconds))
        options.connection_memory_limit = limits.maxHeaderBytes + connectionMemoryOverhead
        options.access_handler = DaemonCallbacks.accessHandler
        options.request_completed = DaemonCallbacks.requestCompleted
        options.uri_logger = DaemonCallbacks.uriLogged
        options.error_logger = DaemonCallbacks.errorLogged
        options.error_page = DaemonCallbacks.errorPage
        options.access_handler_cls = retained.toOpaque()
        options.request_completed_cls = retained.toOpaque()
        options.uri_logger_cls = retained.toOpaque()
        options.error_logger_cls = retained.toOpaque()
        return options
    }

    /// libmicrohttpd keeps the request head and its own bookkeeping in one per-connection pool;
    /// this much of it is not available to headers.
    static let connectionMemoryOverhead = 4096

    /// No new connections, while open ones go on: every daemon lets go of the socket, which is
    /// then closed.
    func quiesce() async {
        for daemon in daemons { await daemon.quiesce() }
        close(listener)
    }

    var openConnections: Int {
        daemons.reduce(0) { $0 + Int(tessera_mhd_current_connections($1.handle)) }
    }

    /// Refuses every later suspension, on each daemon's loop: from here on a request that would
    /// wait for its handler gets a 503 at once, and a stream that would wait for its producer ends.
    func closeSuspensions() async {
        for daemon in daemons {
            let context = daemon.context
            await context.loop.submit { context.suspensions.close() }
        }
    }

    /// Expires every connection still waiting for Swift code, and returns how many were
    /// waiting and how many connections are still suspended (their answers not handed over yet).
    func expireWaiting(reason: HTTPError) async -> (expired: Int, suspended: Int) {
        var total = (expired: 0, suspended: 0)
        for daemon in daemons {
            let context = daemon.context
            let counts = await context.loop.submit {
                (context.answerDeadlines.removeAll { ($0 as? any WaitingConnection)?.expire(reason: reason) }, context.suspensions.count)
            }
            total.expired += counts.0
            total.suspended += counts.1
        }
        return total
    }

    /// Stops every daemon, each on its loop, closing its connections. Nothing may be suspended.
    func stop() async {
        for daemon in daemons { await daemon.stop() }
    }
}

/// One daemon, driven by its event loop: run when its epoll instance has work, at its
/// connections' timeouts, and after a connection was resumed.
final class Daemon: @unchecked Sendable {
    // @unchecked: the handle is used on its loop's thread only, but for
    // `tessera_mhd_current_connections`, which libmicrohttpd allows from any thread.
    let handle: OpaquePointer
    /// What the daemon's callbacks get as their `cls`, retained until the daemon has stopped.
    private let retainedContext: Unmanaged<DaemonContext>
    var context: DaemonContext { retainedContext.takeUnretainedValue() }
    var loop: EventLoop { context.loop }
    private var registration: EventLoop.Registration?

    init(handle: OpaquePointer, context: Unmanaged<DaemonContext>) {
        self.handle = handle
        self.retainedContext = context
    }

    /// Starts serving on the loop.
    func attach() {
        loop.execute {
            let context = self.context
            self.registration = self.loop.register(tessera_mhd_epoll_fd(self.handle), events: .readable) { _ in context.run() }
            context.attach(self.handle)
        }
    }

    func quiesce() async {
        await loop.submit { tessera_mhd_quiesce(self.handle) }
    }

    func stop() async {
        await loop.submit { self.stopNow() }
    }

    /// On the loop's thread, or before the daemon was attached.
    fileprivate func stopNow() {
        if let registration { loop.deregister(registration) }
        registration = nil
        context.detach()
        tessera_mhd_stop(handle)
        retainedContext.release()
    }
}
