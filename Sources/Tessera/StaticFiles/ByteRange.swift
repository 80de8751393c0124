/// A single `Range: bytes=…` request (RFC 9110 §14). Several ranges are answered with the
/// whole file, which the RFC allows and which spares everyone multipart/byteranges.
enum ByteRange: Equatable {
    case satisfiable(ClosedRange<Int64>)
    case unsatisfiable
    /// Not a byte range we serve: answer with the whole file.
    case ignored

    static func parse(_ header: String, size: Int64) -> ByteRange {
        guard header.hasPrefix("bytes=") else { return .ignored }
        let spec = header.dropFirst("bytes=".count)
        guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else { return .ignored }
        let first = spec[..<dash].trimmingCharacters(in: " ")
        let last = spec[spec.index(after: dash)...].trimmingCharacters(in: " ")
        guard first.allSatisfy(\.isWholeNumber), last.allSatisfy(\.isWholeNumber) else { return .ignored }

        if first.isEmpty {
            // Suffix range: the last N bytes.
            guard let count = Int64(last), count > 0 else { return last.isEmpty ? .ignored : .unsatisfiable }
            guard size > 0 else { return .unsatisfiable }
            return .satisfiable(max(0, size - count)...(size - 1))
        }
        guard let start = Int64(first) else { return .ignored }
        guard start < size else { return .unsatisfiable }
        if last.isEmpty { return .satisfiable(start...(size - 1)) }
        guard let end = Int64(last) else { return .ignored }
        guard end >= start else { return .ignored }
        return .satisfiable(start...min(end, size - 1))
    }
}
