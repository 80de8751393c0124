/// The ways a body can be sent, each mapped onto the cheapest libmicrohttpd mechanism.
public enum ResponseBody: Sendable {
    /// Bytes known in full; sent with `Content-Length`.
    case bytes([UInt8])
    /// The bytes of a ``PreparedResponse``, sent from the response it built once.
    case prepared(PreparedResponse)
    /// Bytes produced over time; sent chunked. The producer writes, and each `flush()` sends what
    /// was written so far, so a page can show its top before its slowest part is ready.
    case stream(@Sendable (any ResponseBodyWriter) async throws -> Void)
    /// A slice of an open file, sent by the kernel without copying it through Swift.
    case file(FileRegion)

    /// No body at all.
    public static let empty = ResponseBody.bytes([])

    /// Whether the body is produced over time (``stream(_:)``).
    public var isStream: Bool {
        if case .stream = self { true } else { false }
    }
}

/// Where a streamed body goes.
///
/// `write` only buffers; `flush` hands what was buffered to the connection, and waits when the
/// client reads slower than the producer writes (back-pressure). Both throw once the client
/// has gone, so a producer stops working for nobody.
public protocol ResponseBodyWriter: Sendable {
    func write(_ bytes: [UInt8]) async throws
    func flush() async throws
}

extension ResponseBodyWriter {
    /// Writes `string` as UTF-8.
    public func write(_ string: String) async throws {
        try await write(Array(string.utf8))
    }
}

/// The client went away (or the server is stopping) while a streamed body was being written.
public struct ResponseStreamClosed: Error, Sendable {}
