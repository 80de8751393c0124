import CZlib

extension TestResponse {
    /// The body decompressed when it was sent with `Content-Encoding: gzip`, else as it is; `nil`
    /// when the gzip is broken or truncated.
    public var decodedBody: [UInt8]? {
        header("content-encoding")?.lowercased() == "gzip" ? Gunzip.decompress(body) : body
    }

    /// ``decodedBody`` as UTF-8 text.
    public var decodedText: String? {
        decodedBody.map { String(decoding: $0, as: UTF8.self) }
    }
}

/// gzip decoding through zlib, for tests that read compressed answers.
public enum Gunzip {
    /// What `bytes` holds: one or more whole gzip members in a row. `nil` when the data is
    /// not gzip or ends before its trailer; with `allowingTruncation`, what decodes so far,
    /// which is how a test reads the prefix of a stream flushed in pieces.
    public static func decompress(_ bytes: [UInt8], allowingTruncation: Bool = false) -> [UInt8]? {
        var stream = z_stream()
        guard inflateInit2_(&stream, 15 + 32, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return nil }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        var input = bytes
        var status = Z_OK
        input.withUnsafeMutableBufferPointer { source in
            stream.next_in = source.baseAddress
            stream.avail_in = UInt32(source.count)
            while true {
                let produced: Int = chunk.withUnsafeMutableBufferPointer { target in
                    stream.next_out = target.baseAddress
                    stream.avail_out = UInt32(target.count)
                    status = inflate(&stream, Z_NO_FLUSH)
                    return target.count - Int(stream.avail_out)
                }
                output.append(contentsOf: chunk[..<produced])
                if status == Z_STREAM_END, stream.avail_in > 0 {
                    status = inflateReset(&stream)
                    continue
                }
                if status != Z_OK || (stream.avail_in == 0 && stream.avail_out > 0) { break }
            }
        }
        if status == Z_STREAM_END { return output }
        return allowingTruncation && (status == Z_OK || status == Z_BUF_ERROR) ? output : nil
    }
}
