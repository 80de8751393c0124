#if canImport(Glibc)
import Glibc
#endif

/// A `multipart/form-data` parser (RFC 7578) that reads its body in pieces, so a body written to
/// disk as it arrived (``SpooledFile``) is never held in memory: each file it carries is copied
/// into a spooled file of its own as the parser goes. A body in memory (a small form) is parsed
/// the same way, its files kept in memory.
///
/// It caps the number of parts, so that a body of tiny parts cannot turn into a million
/// allocations, and the size of text fields and part headers, which are kept in memory.
struct MultipartParser {
    let delimiter: [UInt8]
    var maxParts = 1_000
    /// Files in one form: each spooled one holds a file descriptor while the request lives.
    var maxFiles = 16
    /// All text fields together; more is a 413: large content belongs in a file part.
    var maxFieldBytes = 1 << 20
    var maxPartHeaderBytes = 16 * 1024
    /// How much of a spooled body is read at a time.
    var pieceSize = 1 << 16

    init(boundary: String) {
        delimiter = Array("--\(boundary)".utf8)
    }

    /// Why a body is not a form this parser takes; `FormData(body:contentType:)` answers each
    /// with its refusal. Its own type, so that the parser compiles alone and is fuzzed (`make fuzz`).
    enum Failure: Error, Equatable {
        /// Not `multipart/form-data` as RFC 7578 writes it; the detail says where.
        case malformed(String)
        case tooManyParts
        case tooManyFiles(max: Int)
        /// The text fields together are over ``maxFieldBytes``.
        case textTooLarge
        /// A file part could not be written to disk.
        case notStored
        /// A spooled body could not be read back.
        case notRead
    }

    func parse(_ body: RequestBody) throws(Failure) -> FormData {
        try parse(Reader(source: body, pieceSize: pieceSize))
    }

    private func parse(_ reader: Reader) throws(Failure) -> FormData {
        func malformed(_ detail: String) -> Failure {
            .malformed(detail)
        }
        var reader = reader
        let crlf: [UInt8] = [13, 10]
        let separator = crlf + delimiter
        guard try reader.scan(to: delimiter, drain: { _ in }) else { throw malformed("no boundary found") }
        reader.skip(delimiter.count)
        var fields: [QueryParameters.Item] = []
        var files: [UploadedFile] = []
        var fieldBytes = 0
        while true {
            // After a delimiter: `--` ends the body, CRLF starts a part.
            guard try reader.ensure(2) else { throw malformed("the body ends after a boundary") }
            if reader.startsWith([45, 45]) { break }
            guard reader.startsWith(crlf) else { throw malformed("a boundary is not followed by a line break") }
            reader.skip(2)
            guard fields.count + files.count < maxParts else {
                throw .tooManyParts
            }
            var headerBlock: [UInt8] = []
            let maxHeader = maxPartHeaderBytes
            guard
                try reader.scan(
                    to: crlf + crlf,
                    drain: { piece throws(Failure) in
                        headerBlock += piece
                        if headerBlock.count > maxHeader { throw malformed("a part's headers are too long") }
                    })
            else { throw malformed("a part has no header end") }
            reader.skip(4)
            let headers = try parseHeaders(headerBlock[...], malformed)
            let disposition = MediaTypeHeader(headers["content-disposition"] ?? "")
            guard disposition.essence == "form-data", let name = disposition.parameters["name"] else {
                throw malformed("a part has no form-data name")
            }
            if let fileName = disposition.parameters["filename"] {
                guard files.count < maxFiles else { throw .tooManyFiles(max: maxFiles) }
                let contents: RequestBody
                if reader.isSpooled {
                    let file: SpooledFile
                    do { file = try SpooledFile() } catch { throw .notStored }
                    guard
                        try reader.scan(
                            to: separator,
                            drain: { piece throws(Failure) in
                                do { try piece.withUnsafeBytes { try file.append($0) } } catch {
                                    throw .notStored
                                }
                            })
                    else { throw malformed("a part is not closed") }
                    contents = .spooled(file)
                } else {
                    var bytes: [UInt8] = []
                    guard try reader.scan(to: separator, drain: { bytes += $0 }) else { throw malformed("a part is not closed") }
                    contents = .memory(bytes)
                }
                files.append(UploadedFile(fieldName: name, clientFileName: fileName, contentType: headers["content-type"], contents: contents))
            } else {
                var content: [UInt8] = []
                let budget = maxFieldBytes - fieldBytes
                guard
                    try reader.scan(
                        to: separator,
                        drain: { piece throws(Failure) in
                            content += piece
                            if content.count > budget { throw .textTooLarge }
                        })
                else { throw malformed("a part is not closed") }
                fieldBytes += content.count
                guard let value = String(validating: content, as: UTF8.self) else { throw malformed("a field is not UTF-8") }
                fields.append(QueryParameters.Item(name: name, value: value))
            }
            reader.skip(separator.count)
        }
        return FormData(fields: QueryParameters(fields), files: files)
    }

    private func parseHeaders(_ block: ArraySlice<UInt8>, _ malformed: (String) -> Failure) throws(Failure) -> [String: String] {
        var headers: [String: String] = [:]
        for line in block.split(separator: 10) {
            let trimmed = line.last == 13 ? line.dropLast() : line
            guard let colon = trimmed.firstIndex(of: UInt8(ascii: ":")),
                let name = String(validating: trimmed[..<colon], as: UTF8.self),
                let value = String(validating: trimmed[(colon + 1)...], as: UTF8.self)
            else { throw malformed("a part header is not “name: value”") }
            headers[name.lowercased()] = String(Substring(value).trimmingSpaces())
        }
        return headers
    }

    /// The body, a piece at a time, with what has been read but not yet consumed.
    struct Reader {
        let source: RequestBody
        let pieceSize: Int
        private var buffer: [UInt8] = []
        private var position = 0
        private var sourceOffset = 0

        init(source: RequestBody, pieceSize: Int) {
            self.source = source
            self.pieceSize = pieceSize
        }

        var isSpooled: Bool {
            if case .spooled = source { true } else { false }
        }

        func startsWith(_ bytes: [UInt8]) -> Bool {
            buffer[position...].starts(with: bytes)
        }

        mutating func skip(_ count: Int) {
            position += count
        }

        /// Whether at least `count` unconsumed bytes are (or can be made) available.
        mutating func ensure(_ count: Int) throws(Failure) -> Bool {
            while buffer.count - position < count {
                guard try fill() else { return false }
            }
            return true
        }

        /// Consumes up to the next `pattern`, handing everything before it to `drain` (in pieces;
        /// `pattern.count - 1` bytes are held back until it is known they do not start it);
        /// `false` when the body ends first.
        mutating func scan(to pattern: [UInt8], drain: (ArraySlice<UInt8>) throws(Failure) -> Void) throws(Failure) -> Bool {
            while true {
                if let found = Self.firstIndex(of: pattern, in: buffer[position...]) {
                    try drain(buffer[position..<found])
                    position = found
                    return true
                }
                let safeEnd = max(position, buffer.count - (pattern.count - 1))
                if safeEnd > position {
                    try drain(buffer[position..<safeEnd])
                    position = safeEnd
                }
                guard try fill() else { return false }
            }
        }

        /// Where `pattern` first starts in `bytes`: `memchr` for its first byte, then one compare.
        /// The generic `firstRange(of:)` walked collection indices, seconds for a 20 MB upload.
        static func firstIndex(of pattern: [UInt8], in bytes: ArraySlice<UInt8>) -> Int? {
            guard let first = pattern.first else { return bytes.startIndex }
            guard bytes.count >= pattern.count else { return nil }
            return bytes.withUnsafeBytes { haystack in
                pattern.withUnsafeBytes { needle in
                    var start = 0
                    while haystack.count - start >= needle.count {
                        guard let hit = memchr(haystack.baseAddress! + start, Int32(first), haystack.count - start - needle.count + 1) else {
                            return nil
                        }
                        let offset = haystack.baseAddress!.distance(to: UnsafeRawPointer(hit))
                        if memcmp(hit, needle.baseAddress!, needle.count) == 0 { return bytes.startIndex + offset }
                        start = offset + 1
                    }
                    return nil
                }
            }
        }

        /// Reads the next piece; `false` at the end.
        private mutating func fill() throws(Failure) -> Bool {
            if position > 0 {
                buffer.removeFirst(position)
                position = 0
            }
            let piece: [UInt8]
            switch source {
            case .memory(let bytes):
                // A body in memory is one piece: copied once, not in slices.
                guard sourceOffset < bytes.count else { return false }
                piece = buffer.isEmpty ? bytes : Array(bytes[sourceOffset...])
            case .spooled(let file):
                do {
                    piece = try file.read(at: sourceOffset, count: pieceSize)
                } catch {
                    throw .notRead
                }
                guard !piece.isEmpty else { return false }
            }
            sourceOffset += piece.count
            buffer += piece
            return true
        }
    }
}
