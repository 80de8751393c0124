import Synchronization
import Tessera

/// Reads a response body in full, in process: the bytes, a prepared body, a file region, or
/// everything a streamed body writes.
enum BodyCollector {
    static func collect(_ body: ResponseBody) async throws -> [UInt8] {
        switch body {
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

    private final class CollectingWriter: ResponseBodyWriter {
        private let buffer = Mutex<[UInt8]>([])

        var bytes: [UInt8] { buffer.withLock { $0 } }

        func write(_ bytes: [UInt8]) async throws {
            buffer.withLock { $0.append(contentsOf: bytes) }
        }

        func flush() async throws {}
    }
}
