import CTesseraShim
#if canImport(Glibc)
import Glibc
#endif

/// A running libmicrohttpd daemon. Owns the C handle and the retained ``ServerCore`` it calls into.
final class Daemon: @unchecked Sendable {
    // @unchecked: the handle is only used through thread-safe libmicrohttpd calls, and
    // `stop()` is called once, by the server's run loop, after everything else.
    private let handle: OpaquePointer
    private let retainedCore: Unmanaged<ServerCore>
    let port: Int

    struct StartError: Error, CustomStringConvertible {
        var description: String
    }

    init(core: ServerCore, configuration: HTTPServerConfiguration) throws {
        let retained = Unmanaged.passRetained(core)
        let flags = MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_EPOLL.rawValue
            | MHD_ALLOW_SUSPEND_RESUME.rawValue | MHD_USE_ERROR_LOG.rawValue | MHD_USE_TURBO.rawValue
        let limits = configuration.limits
        var errorBuffer = [CChar](repeating: 0, count: 256)
        let started: OpaquePointer? = configuration.host.withCString { host in
            var options = tessera_daemon_options()
            options.flags = UInt32(flags)
            options.host = host
            options.port = UInt16(clamping: configuration.port)
            options.thread_pool_size = UInt32(max(1, configuration.threads))
            // Our caps answer 503 (``OpenConnections``); libmicrohttpd's, a little higher, close at once.
            let cap = core.connections
            options.connection_limit = UInt32(cap.limit + OpenConnections.overflow(of: cap.limit))
            options.per_ip_connection_limit = cap.limitPerAddress > 0 && cap.uncappedAddresses.isEmpty
                ? UInt32(cap.limitPerAddress + OpenConnections.overflow(of: cap.limitPerAddress)) : 0
            options.connection_notified = DaemonCallbacks.connectionNotified
            options.connection_notified_cls = retained.toOpaque()
            options.connection_timeout_seconds = UInt32(max(1, limits.idleTimeout.components.seconds))
            options.connection_memory_limit = limits.maxHeaderBytes + Self.connectionMemoryOverhead
            options.listen_backlog = 1024
            options.access_handler = DaemonCallbacks.accessHandler
            options.request_completed = DaemonCallbacks.requestCompleted
            options.uri_logger = DaemonCallbacks.uriLogged
            options.error_logger = DaemonCallbacks.errorLogged
            options.access_handler_cls = retained.toOpaque()
            options.request_completed_cls = retained.toOpaque()
            options.uri_logger_cls = retained.toOpaque()
            options.error_logger_cls = retained.toOpaque()
            return tessera_mhd_start(&options, &errorBuffer, errorBuffer.count)
        }
        guard let started else {
            retained.release()
            throw StartError(description: String(decoding: errorBuffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        handle = started
        retainedCore = retained
        port = Int(tessera_mhd_bound_port(started))
    }

    /// libmicrohttpd keeps the request head and its own bookkeeping in one per-connection pool;
    /// this much of it is not available to headers.
    static let connectionMemoryOverhead = 4096

    /// Closes the listening socket: no new connections, while open ones go on.
    func quiesce() {
        tessera_mhd_quiesce(handle)
    }

    var openConnections: Int {
        Int(tessera_mhd_current_connections(handle))
    }

    /// Stops the threads and closes every connection. Nothing may be suspended any more.
    func stop() {
        tessera_mhd_stop(handle)
        retainedCore.release()
    }
}
