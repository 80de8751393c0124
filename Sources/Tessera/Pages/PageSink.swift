import TesseraHTTP
import TesseraViews

/// Where a page's assembly goes: one buffer sent whole, or the response's stream. The one
/// assembly (``PageRenderer``) writes the same bytes to either.
protocol PageSink {
    /// Writes bytes of the rendered document, which are HTML already.
    mutating func write(document bytes: ArraySlice<UInt8>) async throws
    /// Writes what `render` writes, and hands back what it returns.
    mutating func write<Result>(_ render: (inout HTMLOutput) -> Result) async throws -> Result
    /// Called before waiting for a region still at work: a stream sends what it has by then.
    mutating func beforeWaiting() async throws
}

/// The whole page in memory, for an answer with a `Content-Length`.
struct BufferedPage: PageSink {
    var output: HTMLOutput

    mutating func write(document bytes: ArraySlice<UInt8>) { output.write(trusted: bytes) }
    mutating func write<Result>(_ render: (inout HTMLOutput) -> Result) -> Result { render(&output) }
    func beforeWaiting() {}
}

/// The page as it is assembled, in document order, to the response's stream.
struct StreamedPage: PageSink {
    let writer: any ResponseBodyWriter

    func write(document bytes: ArraySlice<UInt8>) async throws { try await writer.write(Array(bytes)) }

    func write<Result>(_ render: (inout HTMLOutput) -> Result) async throws -> Result {
        var piece = HTMLOutput(capacity: 1024)
        let result = render(&piece)
        try await writer.write(piece.bytes)
        return result
    }

    func beforeWaiting() async throws { try await writer.flush() }
}
