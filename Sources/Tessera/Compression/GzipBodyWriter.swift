import Synchronization
import TesseraHTTP

/// A streamed body's writer that gzips on the way to the connection's writer: writes are
/// buffered as they come, and each `flush()` compresses them with a sync flush, so every
/// region the page streams still reaches the browser as soon as it is rendered.
final class GzipBodyWriter: ResponseBodyWriter {
    private let destination: any ResponseBodyWriter
    /// The writes since the last flush, and the encoder; one producer writes, but the type
    /// must be `Sendable` to be handed around as a writer.
    private let state: Mutex<(pending: [UInt8], encoder: GzipEncoder?)>

    /// `nil` when zlib cannot start a stream: the page is then sent as it is.
    init?(writingTo destination: any ResponseBodyWriter) {
        guard let encoder = GzipEncoder(level: GzipEncoder.perRequest) else { return nil }
        self.destination = destination
        self.state = Mutex(([], encoder))
    }

    func write(_ bytes: [UInt8]) async throws {
        state.withLock { $0.pending.append(contentsOf: bytes) }
    }

    func flush() async throws {
        try await send(.sync)
    }

    /// Ends the gzip stream: call once, after the producer's last write.
    func finish() async throws {
        try await send(.finish)
    }

    /// A failure of zlib ends the stream as any producer error does: the connection is closed
    /// without the chunked terminator, so the client sees a cut, never a wrong page.
    private func send(_ flush: GzipEncoder.Flush) async throws {
        let compressed: [UInt8] = try state.withLock { state in
            guard let encoder = state.encoder else { return [] }
            defer {
                state.pending.removeAll(keepingCapacity: true)
                if flush == .finish { state.encoder = nil }
            }
            return try encoder.compress(state.pending, flush: flush)
        }
        try await destination.write(compressed)
        if flush == .sync { try await destination.flush() }
    }
}
