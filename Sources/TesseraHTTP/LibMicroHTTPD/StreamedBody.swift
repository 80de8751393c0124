import CTesseraShim
import Logging
import Synchronization

/// The bridge between an async producer and libmicrohttpd's pull-style content reader.
///
/// libmicrohttpd asks for bytes on its own thread when the socket can take them. When nothing
/// is ready, the reader suspends the connection (returning 0 without suspending would busy-loop)
/// and the next `flush()` resumes it. When the producer runs ahead, `flush()` waits until the
/// client has read enough, so a slow client never makes the server buffer a whole page.
final class StreamedBody: ResponseBodyWriter, WaitingConnection, @unchecked Sendable {
    // @unchecked: every mutable field is inside `state` but `deadlineLinks`, which only the
    // loop's ``DeadlineList`` touches; `connection` is only passed to libmicrohttpd calls
    // that the library allows from any thread on a suspended connection.
    private struct State {
        var pending: [UInt8] = []
        var ready: [UInt8] = []
        var readIndex = 0
        var finished = false
        var failed = false
        var closed = false
        var readerSuspended = false
        var blockedWriter: CheckedContinuation<Void, any Error>?
        var bytesSent: Int64 = 0
        var producer: Task<Void, Never>?
    }

    static let highWater = 256 * 1024
    static let blockSize = 32 * 1024

    private let daemon: DaemonContext
    private let connection: OpaquePointer
    private let state = Mutex(State())
    var deadlineLinks = DeadlineLinks()

    init(daemon: DaemonContext, connection: OpaquePointer) {
        self.daemon = daemon
        self.connection = connection
    }

    var bytesSent: Int64 {
        state.withLock { $0.bytesSent }
    }

    /// A chunked libmicrohttpd response that reads from this body. It holds a strong reference,
    /// released by the library's free callback when the response is done with.
    func makeResponse() -> OpaquePointer? {
        MHD_create_response_from_callback(
            UInt64.max, Self.blockSize, streamedBodyRead,
            Unmanaged.passRetained(self).toOpaque(), streamedBodyFree
        )
    }

    func start(_ producer: @escaping @Sendable (any ResponseBodyWriter) async throws -> Void) {
        // On the connection's loop, like the request that made it.
        let task = Task(executorPreference: daemon.loop) {
            do {
                try await producer(self)
                try await self.flush(final: true)
            } catch {
                self.end(failed: true)
            }
        }
        state.withLock { $0.producer = task }
    }

    // MARK: ResponseBodyWriter

    func write(_ bytes: [UInt8]) async throws {
        try state.withLock { state in
            guard !state.closed else { throw ResponseStreamClosed() }
            state.pending.append(contentsOf: bytes)
        }
    }

    func flush() async throws {
        try await flush(final: false)
    }

    private func flush(final: Bool) async throws {
        let mustResume = try state.withLock { state in
            guard !state.closed else { throw ResponseStreamClosed() }
            if state.ready.isEmpty {
                swap(&state.ready, &state.pending)
            } else {
                state.ready.append(contentsOf: state.pending)
                state.pending.removeAll(keepingCapacity: true)
            }
            if final { state.finished = true }
            return takeSuspendedReader(&state)
        }
        if mustResume { daemon.resume(connection, endingWaitOf: self) }
        guard !final else { return }
        // Back-pressure: wait while the client is far behind.
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let outcome: Result<Void, any Error>? = state.withLock { state in
                if state.closed { return .failure(ResponseStreamClosed()) }
                if state.ready.count - state.readIndex <= Self.highWater { return .success(()) }
                state.blockedWriter = continuation
                return nil
            }
            if let outcome { continuation.resume(with: outcome) }
        }
    }

    /// Ends the stream early: after a producer error, a deadline, or shutdown.
    private func end(failed: Bool) {
        let mustResume = state.withLock { state in
            state.finished = true
            state.failed = state.failed || failed
            return takeSuspendedReader(&state)
        }
        if mustResume { daemon.resume(connection, endingWaitOf: self) }
    }

    private func takeSuspendedReader(_ state: inout State) -> Bool {
        guard state.readerSuspended else { return false }
        state.readerSuspended = false
        return true
    }

    /// On the connection's loop, whose ``DeadlineList`` has let go of it.
    func expire(reason: HTTPError) {
        daemon.core.logger.warning("streamed body cut short", metadata: ["reason": "\(reason.message)"])
        state.withLock { $0.producer }?.cancel()
        end(failed: true)
    }

    // MARK: libmicrohttpd side (the connection's thread)

    fileprivate func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        var wakeWriter: CheckedContinuation<Void, any Error>?
        var abandonedProducer: Task<Void, Never>?
        let result: Int = state.withLock { state in
            let available = state.ready.count - state.readIndex
            if available > 0 {
                let count = min(available, buffer.count)
                state.ready.withUnsafeBytes { source in
                    buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[state.readIndex..<(state.readIndex + count)]))
                }
                state.readIndex += count
                state.bytesSent += Int64(count)
                if state.readIndex == state.ready.count {
                    state.ready.removeAll(keepingCapacity: true)
                    state.readIndex = 0
                }
                if state.ready.count - state.readIndex <= Self.highWater / 2 {
                    wakeWriter = state.blockedWriter
                    state.blockedWriter = nil
                }
                return count
            }
            if state.finished {
                return state.failed ? Int(TESSERA_READER_END_WITH_ERROR) : Int(TESSERA_READER_END_OF_STREAM)
            }
            guard daemon.suspensions.suspend(connection) else {
                // The server is stopping and waits for nothing any more: the stream ends here.
                state.finished = true
                state.failed = true
                abandonedProducer = state.producer
                return Int(TESSERA_READER_END_WITH_ERROR)
            }
            state.readerSuspended = true
            daemon.answerDeadlines.insert(self)
            return 0
        }
        wakeWriter?.resume()
        abandonedProducer?.cancel()
        return result
    }

    fileprivate func close() {
        let (writer, producer): (CheckedContinuation<Void, any Error>?, Task<Void, Never>?) = state.withLock { state in
            state.closed = true
            defer { state.blockedWriter = nil }
            return (state.blockedWriter, state.producer)
        }
        writer?.resume(throwing: ResponseStreamClosed())
        if producer != nil, !state.withLock({ $0.finished }) { producer?.cancel() }
    }
}

private let streamedBodyRead: @convention(c) (UnsafeMutableRawPointer?, UInt64, UnsafeMutablePointer<CChar>?, Int) -> Int = { cls, _, buffer, max in
    guard let cls, let buffer else { return Int(TESSERA_READER_END_WITH_ERROR) }
    let body = Unmanaged<StreamedBody>.fromOpaque(cls).takeUnretainedValue()
    return body.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: max))
}

private let streamedBodyFree: @convention(c) (UnsafeMutableRawPointer?) -> Void = { cls in
    guard let cls else { return }
    Unmanaged<StreamedBody>.fromOpaque(cls).takeRetainedValue().close()
}
