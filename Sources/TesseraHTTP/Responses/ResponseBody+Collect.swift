import Synchronization

extension ResponseBody {
    /// The whole body in memory: the bytes, a prepared body, a file region, or everything a
    /// streamed body writes. What a `HEAD` needs to know its length (the body is rendered and
    /// discarded), what compression of a known body reads, and what tests read.
    public func collect() async throws -> [UInt8] {
        switch self {
        case .bytes(let bytes):
            return bytes
        case .prepared(let prepared):
            return prepared.body
        case .file(let region):
            return region.readBytes()
        case .stream(let produce):
            let writer = CollectingWriter()
            try await produce(writer)
            return writer.bytes
        }
    }
}

/// A writer that keeps everything: flushing has nowhere to go.
private final class CollectingWriter: ResponseBodyWriter {
    private let buffer = Mutex<[UInt8]>([])

    var bytes: [UInt8] { buffer.withLock { $0 } }

    func write(_ bytes: [UInt8]) async throws {
        buffer.withLock { $0.append(contentsOf: bytes) }
    }

    func flush() async throws {}
}
