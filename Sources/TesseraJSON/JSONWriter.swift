import Foundation

/// Writes an `Encodable` value as JSON straight into a byte buffer, the answer's own bytes.
///
/// Foundation's `JSONEncoder` first builds a tree of every value, then serializes the tree into
/// `Data`, which the answer copies again. This writer emits each value the moment the value's
/// `encode(to:)` hands it over, so a body costs one growing buffer and nothing per field
/// (`Benchmarks/run-http.py techempower` measures `/json` and `/cached-queries` with it). What
/// `JSONDecoder` reads back is what it reads back from Foundation's encoder for the same value;
/// `JSONWriterTests` and the `JSON` fuzz target check that on random values.
///
/// Writing in place has one rule a tree does not: a container that has been left for a later
/// sibling cannot be written to again (Foundation allows it; synthesized `Encodable` and the
/// standard library never do it). Doing so throws ``JSONWriter/OutOfOrder`` instead of writing
/// JSON that is not what was meant.
public struct JSONWriter: Sendable {
    /// How a `Date` is written; the cases mean what `JSONEncoder.DateEncodingStrategy`'s do.
    public enum DateEncoding: Sendable {
        /// `Date`'s own `Encodable`: the seconds since 2001-01-01 as a number.
        case deferredToDate
        /// The seconds since 1970-01-01 as a number.
        case secondsSince1970
        /// ISO 8601 in UTC, to the second (`2026-12-06T11:27:19Z`).
        case iso8601
    }

    /// Members of every object in the byte order of their keys, so a dictionary gives the
    /// same bytes each run (a kept page's `ETag` depends on them).
    public var sortsKeys: Bool
    /// Also escapes `<`, `>`, `&`, U+2028 and U+2029 as `\u` escapes, so the text can sit
    /// inside `<script>` without closing the element or opening a comment.
    public var isScriptSafe: Bool
    public var dateEncoding: DateEncoding

    public init(sortsKeys: Bool = false, isScriptSafe: Bool = false, dateEncoding: DateEncoding = .deferredToDate) {
        self.sortsKeys = sortsKeys
        self.isScriptSafe = isScriptSafe
        self.dateEncoding = dateEncoding
    }

    /// Appends `value`'s JSON to `bytes`. On a throw, `bytes` is left as it was.
    public func write(_ value: some Encodable, into bytes: inout [UInt8]) throws {
        let start = bytes.count
        let encoder = JSONWritingEncoder(bytes: bytes, options: self)
        bytes = []
        defer { swap(&bytes, &encoder.state.pointee.bytes) }
        do {
            try encoder.encodeTopLevel(value)
        } catch {
            encoder.state.pointee.bytes.removeSubrange(start...)
            throw error
        }
    }

    /// `value`'s JSON in a buffer of its own, sized for a small answer.
    public func bytes(_ value: some Encodable) throws -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(256)
        try write(value, into: &bytes)
        return bytes
    }

    /// `value`'s JSON as text.
    public func string(_ value: some Encodable) throws -> String {
        String(decoding: try bytes(value), as: UTF8.self)
    }

    /// A container was written to after its encoder had moved on to a later sibling, which
    /// JSON written in place cannot take back.
    public struct OutOfOrder: Error, CustomStringConvertible {
        public let codingPath: [any CodingKey]
        public var description: String {
            "a JSON container at \(codingPath.map(\.stringValue)) was written to after a later sibling"
        }
    }
}
