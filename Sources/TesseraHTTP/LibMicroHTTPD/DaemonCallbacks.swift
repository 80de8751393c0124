import CTesseraShim
import HTTPTypes
import Logging
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The C entry points libmicrohttpd calls. Each one turns its `cls` back into its daemon's
/// ``DaemonContext`` and delegates; no logic lives here that could live in a testable Swift type.
enum DaemonCallbacks {
    /// libmicrohttpd refuses a request inside its parser: the app's error step may answer.
    static let errorPage: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UInt32, UnsafePointer<CChar>?) -> OpaquePointer? = {
        cls, connection, status, message in
        guard let cls, let connection else { return nil }
        let daemon = Unmanaged<DaemonContext>.fromOpaque(cls).takeUnretainedValue()
        let text = message.map { String(cString: $0) } ?? ""
        let page = LibraryRefusal.page(on: connection, status: Int(status), message: text, core: daemon.core)
        let open = tessera_mhd_socket_context(connection).map { Unmanaged<OpenConnection>.fromOpaque($0).takeUnretainedValue() }
        open?.request?.recordLibraryAnswer(status: Int(status), bodyBytes: page?.bodyBytes ?? text.utf8.count)
        return page?.response
    }

    /// A request's first line has arrived: create its context. The returned pointer comes back
    /// as `*con_cls` in the access callback and is released in `requestCompleted`.
    static let uriLogged: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, OpaquePointer?) -> UnsafeMutableRawPointer? = {
        cls, uri, connection in
        guard let cls, let connection else { return nil }
        let daemon = Unmanaged<DaemonContext>.fromOpaque(cls).takeUnretainedValue()
        daemon.core.inFlight.add(1, ordering: .relaxed)
        let open = tessera_mhd_socket_context(connection).map { Unmanaged<OpenConnection>.fromOpaque($0).takeUnretainedValue() }
        let context = ConnectionRequest(
            daemon: daemon,
            connection: connection,
            open: open,
            target: uri.map { String(cString: $0) } ?? "",
            targetByteCount: uri.map { strlen($0) } ?? 0,
            targetHasSpace: uri.map { strchr($0, Int32(UInt8(ascii: " "))) != nil } ?? false
        )
        open?.request = context
        return Unmanaged.passRetained(context).toOpaque()
    }

    static let accessHandler:
        @convention(c) (
            UnsafeMutableRawPointer?, OpaquePointer?, UnsafePointer<CChar>?, UnsafePointer<CChar>?,
            UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafeMutablePointer<Int>?, UnsafeMutablePointer<UnsafeMutableRawPointer?>?
        ) -> MHD_Result = { _, _, url, method, version, uploadData, uploadSize, contextPointer in
            guard let pointer = contextPointer?.pointee, let uploadSize else { return .NO }
            let context = Unmanaged<ConnectionRequest>.fromOpaque(pointer).takeUnretainedValue()
            let upload =
                uploadData.map { UnsafeRawBufferPointer(start: $0, count: uploadSize.pointee) } ?? UnsafeRawBufferPointer(start: nil, count: 0)
            switch RequestReader.advance(context, method: method, url: url, version: version, upload: upload) {
            case .continue:
                uploadSize.pointee = 0
                return .YES
            case .close:
                return .NO
            }
        }

    static let requestCompleted:
        @convention(c) (
            UnsafeMutableRawPointer?, OpaquePointer?, UnsafeMutablePointer<UnsafeMutableRawPointer?>?, MHD_RequestTerminationCode
        ) -> Void = { _, _, contextPointer, termination in
            guard let contextPointer, let pointer = contextPointer.pointee else { return }
            contextPointer.pointee = nil
            let context = Unmanaged<ConnectionRequest>.fromOpaque(pointer).takeRetainedValue()
            context.core.inFlight.subtract(1, ordering: .relaxed)
            if let open = context.open {
                open.request = nil
                context.daemon.headDeadlines.insert(open)
            }
            AccessLog.record(context, completedNormally: termination == .REQUEST_TERMINATED_COMPLETED_OK || context.answeredByLibrary)
        }

    /// A connection was accepted or is closing. Its ``OpenConnection`` lives in the socket
    /// context from one to the other.
    static let connectionNotified:
        @convention(c) (
            UnsafeMutableRawPointer?, OpaquePointer?, UnsafeMutablePointer<UnsafeMutableRawPointer?>?, MHD_ConnectionNotificationCode
        ) -> Void = { cls, connection, socketContext, code in
            guard let cls, let connection, let socketContext else { return }
            let daemon = Unmanaged<DaemonContext>.fromOpaque(cls).takeUnretainedValue()
            switch code {
            case .CONNECTION_NOTIFY_STARTED:
                let open = daemon.core.connections.open(socket: tessera_mhd_connection_fd(connection), address: clientAddress(connection))
                daemon.headDeadlines.insert(open)
                socketContext.pointee = Unmanaged.passRetained(open).toOpaque()
            case .CONNECTION_NOTIFY_CLOSED:
                guard let pointer = socketContext.pointee else { return }
                socketContext.pointee = nil
                let open = Unmanaged<OpenConnection>.fromOpaque(pointer).takeRetainedValue()
                daemon.headDeadlines.remove(open)
                daemon.core.connections.close(open)
            default:
                break
            }
        }

    static let errorLogged: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?) -> Void = { cls, message in
        guard let cls, let message else { return }
        let core = Unmanaged<DaemonContext>.fromOpaque(cls).takeUnretainedValue().core
        core.logger.debug("libmicrohttpd: \(String(cString: message))")
    }

    private static func clientAddress(_ connection: OpaquePointer) -> IPAddress? {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 16) { buffer in
            let count = Int(tessera_mhd_client_address(connection, buffer.baseAddress))
            return IPAddress(bytes: UnsafeBufferPointer(rebasing: buffer[..<count]))
        }
    }
}
