import CZlib

/// One gzip stream through zlib: bytes in, compressed bytes out, flushed whenever the caller
/// says so, so that a streamed page's compressed pieces leave with the page's own flushes.
///
/// Not thread-safe, and not meant to be: each response owns its encoder, and a response's
/// body is written by one task.
final class GzipEncoder {
    /// How much of the stream a call ends.
    enum Flush {
        /// Everything so far becomes decodable by the client (`Z_SYNC_FLUSH`): a streamed
        /// region reaches the browser when its flush does, at the cost of a few bytes.
        case sync
        /// The stream ends: the last block and the gzip trailer.
        case finish
    }

    private var stream = z_stream()
    private var isOpen: Bool

    /// zlib's level 6, its default: for HTML, most of level 9's size at a fraction of its time.
    init(level: Int32 = 6) {
        isOpen = czlib_deflate_init_gzip(&stream, level) == Z_OK
    }

    deinit {
        if isOpen { deflateEnd(&stream) }
    }

    /// `input` compressed, then flushed as `flush` says.
    func compress(_ input: some Collection<UInt8>, flush: Flush) -> [UInt8] {
        precondition(isOpen, "zlib could not start a stream (out of memory)")
        var output: [UInt8] = []
        output.reserveCapacity(Int(deflateBound(&stream, UInt(input.count))) + 16)
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        let mode = flush == .sync ? Z_SYNC_FLUSH : Z_FINISH
        var input = Array(input)
        input.withUnsafeMutableBufferPointer { source in
            stream.next_in = source.baseAddress
            stream.avail_in = UInt32(source.count)
            repeat {
                let produced: Int = chunk.withUnsafeMutableBufferPointer { target in
                    stream.next_out = target.baseAddress
                    stream.avail_out = UInt32(target.count)
                    deflate(&stream, mode)
                    return target.count - Int(stream.avail_out)
                }
                output.append(contentsOf: chunk[..<produced])
            } while stream.avail_out == 0
            stream.next_in = nil
        }
        if flush == .finish {
            deflateEnd(&stream)
            isOpen = false
        }
        return output
    }

    /// `bytes` as one whole gzip member.
    static func gzip(_ bytes: some Collection<UInt8>) -> [UInt8] {
        GzipEncoder().compress(bytes, flush: .finish)
    }
}
