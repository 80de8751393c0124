#if canImport(Glibc)
import Glibc
#endif

/// Finds what libmicrohttpd 0.9.75 tolerates in a request head and then hides: repeated spaces
/// in the request line, which it skips or leaves in the target, and NUL bytes in header values, where its C strings
/// simply end (`X: a<NUL>b` reads as `a`). RFC 9112 wants both refused, because another
/// server in the chain may read them differently.
///
/// The library parses the head in place, in one buffer: the spaces that end the method and
/// the target, and every line end, become NULs, and each method, target, version, name and
/// value points into that buffer. So the head as it arrived can be checked from the layout:
/// between the end of one piece and the start of the next there must be exactly one separator
/// (one space, or a line end of one or two bytes, now zeros) and nothing else. A gap with
/// other bytes in it, or a longer one, held something the library skipped.
///
/// It is checked line by line while the headers are collected, so a request costs no more than
/// a few pointer comparisons.
struct SkippedHeadBytes {
    private let method: UnsafeRawPointer
    private var pieceEnd: UnsafeRawPointer
    /// False once something was found between two pieces.
    private(set) var isStrict: Bool

    /// Checks the request line: one space after the method, one before the version, none in
    /// the target (the library takes the last space as the one before the version).
    /// - Parameters:
    ///   - targetByteCount: the target's length as the client sent it, before the library
    ///     decoded it in place.
    ///   - targetHasSpace: whether it held a space then (`%20` is not one).
    init(method: UnsafePointer<CChar>, target: UnsafePointer<CChar>, targetByteCount: Int, targetHasSpace: Bool, version: UnsafePointer<CChar>) {
        self.method = UnsafeRawPointer(method)
        let methodEnd = UnsafeRawPointer(method) + strlen(method)
        pieceEnd = UnsafeRawPointer(version) + strlen(version)
        isStrict =
            UnsafeRawPointer(target) == methodEnd + 1
            && UnsafeRawPointer(version) == UnsafeRawPointer(target) + targetByteCount + 1
            && !targetHasSpace
    }

    /// The next header line: after the previous piece, a line end, then this line's name.
    mutating func line(start: UnsafeRawPointer, valueEnd: UnsafeRawPointer) {
        if isStrict && !Self.isLineEnd(from: pieceEnd, to: start, lineEnds: 1) { isStrict = false }
        pieceEnd = valueEnd
    }

    /// Whether the whole head, `byteCount` bytes from the method's first one, was strict:
    /// after the last value come its line end and the empty line's, and nothing else.
    func isStrict(headByteCount byteCount: Int) -> Bool {
        isStrict && Self.isLineEnd(from: pieceEnd, to: method + byteCount, lineEnds: 2)
    }

    /// Whether `start..<end` holds `lineEnds` line ends (CRLF or LF, now one or two zeros each) and nothing else.
    private static func isLineEnd(from start: UnsafeRawPointer, to end: UnsafeRawPointer, lineEnds: Int) -> Bool {
        let count = end - start
        guard count >= lineEnds, count <= 2 * lineEnds else { return false }
        return UnsafeRawBufferPointer(start: start, count: count).allSatisfy { $0 == 0 }
    }
}
