import CZlib

/// One gzip stream through zlib: bytes in, compressed bytes out, flushed whenever the caller
/// says so, so that a streamed page's compressed pieces leave with the page's own flushes.
///
/// Not thread-safe, and not meant to be: each response owns its encoder, and a response's
/// body is written by one task. The `z_stream` lives at a fixed address, as zlib requires (it
/// checks that the stream it is given is the one it set up).
final class GzipEncoder {
    /// How much of the stream a call ends.
    enum Flush {
        /// Everything so far becomes decodable by the client (`Z_SYNC_FLUSH`): a streamed
        /// region reaches the browser when its flush does, at the cost of a few bytes.
        case sync
        /// The stream ends: the last block and the gzip trailer.
        case finish
    }

    /// zlib refused to go on (it never does with valid input, short of memory).
    struct Failure: Error {
        let code: Int32
    }

    private let stream: UnsafeMutablePointer<z_stream>
    private var isOpen = true

    /// `nil` when zlib cannot start a stream (out of memory): the caller sends the body as it is.
    ///
    /// - Parameter level: 1 to 9; see ``perRequest`` and ``once``.
    /// - Parameter size: the input's length when known in advance. zlib's default window and
    ///   hash table take about 260 KB, allocated and cleared for every stream, which costs more
    ///   than compressing a 1 KB page; a window just large enough for the input compresses it
    ///   the same, for a few kilobytes. A stream of unknown length (a streamed page) gets 32 KB.
    init?(level: Int32, size: Int? = nil) {
        let windowBits = size.map { Self.windowBits(for: $0) } ?? 15
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        guard czlib_deflate_init_gzip(stream, level, windowBits, min(8, max(1, windowBits - 7))) == Z_OK else {
            stream.deallocate()
            return nil
        }
    }

    deinit {
        if isOpen { deflateEnd(stream) }
        stream.deallocate()
    }

    /// `input` compressed, then flushed as `flush` says.
    func compress(_ input: some Collection<UInt8>, flush: Flush) throws(Failure) -> [UInt8] {
        guard isOpen else { throw Failure(code: Z_STREAM_ERROR) }
        var output: [UInt8] = []
        output.reserveCapacity(Int(deflateBound(stream, UInt(input.count))) + 16)
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        var input = Array(input)
        let mode = flush == .sync ? Z_SYNC_FLUSH : Z_FINISH
        var status = Z_OK
        input.withUnsafeMutableBufferPointer { source in
            stream.pointee.next_in = source.baseAddress
            stream.pointee.avail_in = UInt32(source.count)
            repeat {
                let produced: Int = chunk.withUnsafeMutableBufferPointer { target in
                    stream.pointee.next_out = target.baseAddress
                    stream.pointee.avail_out = UInt32(target.count)
                    status = deflate(stream, mode)
                    return target.count - Int(stream.pointee.avail_out)
                }
                output.append(contentsOf: chunk[..<produced])
                // A full output buffer means zlib has more to give; Z_BUF_ERROR only says it had
                // nothing left to do.
            } while (status == Z_OK || status == Z_BUF_ERROR) && stream.pointee.avail_out == 0
            stream.pointee.next_in = nil
        }
        let done = flush == .finish ? status == Z_STREAM_END : (status == Z_OK || status == Z_BUF_ERROR)
        if flush == .finish || !done {
            deflateEnd(stream)
            isOpen = false
        }
        guard done else { throw Failure(code: status) }
        return output
    }

    /// For answers compressed per request: level 1, nginx's default. On the storefront's pages it
    /// is about half of level 6's time for 5% more bytes (1,730 against 1,635 for the home page's
    /// 6,240).
    static let perRequest: Int32 = 1
    /// For what is compressed once and served many times (static files at start): the smallest.
    static let once: Int32 = 9

    /// `bytes` as one whole gzip member at `level`, or `nil` when zlib fails.
    static func gzip(_ bytes: some Collection<UInt8>, level: Int32) -> [UInt8]? {
        try? GzipEncoder(level: level, size: bytes.count)?.compress(bytes, flush: .finish)
    }

    /// The smallest window (2^9 to 2^15 bytes) that holds `size` bytes: matches never reach
    /// further back than the input, so a larger one would find nothing more.
    static func windowBits(for size: Int) -> Int32 {
        var bits: Int32 = 9
        while bits < 15, (1 << bits) < size { bits += 1 }
        return bits
    }
}
