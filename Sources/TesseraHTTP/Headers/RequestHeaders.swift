import HTTPTypes

/// A request's header fields, kept as they arrived, in one byte buffer.
///
/// Most handlers read two or three fields of the dozen a browser sends, so building a full
/// `HTTPFields` (a validated `String` per name and value, an index) for every request is wasted
/// work. Like SwiftNIO's `HTTPHeaders`, this stores the fields back to back and scans them on
/// lookup; names compare case-insensitively. ``fields`` builds an `HTTPFields` when one is needed.
public struct RequestHeaders: Sendable, Sequence, ExpressibleByDictionaryLiteral {
    /// Records of `[name length: 2 bytes][value length: 4 bytes][name][value]`, native byte order.
    private var storage: [UInt8] = []
    /// How many fields there are.
    public private(set) var count = 0

    /// No fields.
    public init() {}

    /// The fields of `fields`, in order.
    public init(_ fields: HTTPFields) {
        for field in fields { append(name: field.name.rawName, value: field.value) }
    }

    /// Fields from a literal, for tests.
    public init(dictionaryLiteral elements: (HTTPField.Name, String)...) {
        for (name, value) in elements { append(name: name.rawName, value: value) }
    }

    /// The first value of `name`, or `nil`.
    public subscript(name: HTTPField.Name) -> String? {
        var result: String?
        forEachValue(of: name) { value in
            result = String(decoding: value, as: UTF8.self)
            return false
        }
        return result
    }

    /// Every value of `name`, in order.
    public subscript(values name: HTTPField.Name) -> [String] {
        var results: [String] = []
        forEachValue(of: name) { value in
            results.append(String(decoding: value, as: UTF8.self))
            return true
        }
        return results
    }

    /// Whether any field is called `name`.
    public func contains(_ name: HTTPField.Name) -> Bool {
        var found = false
        forEachValue(of: name) { _ in
            found = true
            return false
        }
        return found
    }

    /// All fields as swift-http-types' `HTTPFields`, built now.
    public var fields: HTTPFields {
        HTTPFields(self)
    }

    /// Appends a field as received; the name is matched case-insensitively later.
    public mutating func append(name: String, value: String) {
        var name = name
        var value = value
        name.withUTF8 { nameBytes in value.withUTF8 { valueBytes in append(rawName: nameBytes, value: valueBytes) } }
    }

    /// Appends a field from raw bytes; the caller has checked `name` is a token.
    mutating func append(rawName name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>) {
        if storage.isEmpty { storage.reserveCapacity(512) }
        withUnsafeBytes(of: UInt16(truncatingIfNeeded: name.count)) { storage.append(contentsOf: $0) }
        withUnsafeBytes(of: UInt32(truncatingIfNeeded: value.count)) { storage.append(contentsOf: $0) }
        storage.append(contentsOf: name)
        storage.append(contentsOf: value)
        count += 1
    }

    /// Iterates the fields in the order received.
    public func makeIterator() -> Iterator {
        Iterator(headers: self)
    }

    /// Walks the fields in order.
    public struct Iterator: IteratorProtocol {
        let headers: RequestHeaders
        var offset = 0

        /// The next field, or `nil` at the end.
        public mutating func next() -> HTTPField? {
            while offset < headers.storage.count {
                let record = headers.record(at: offset)
                offset = record.next
                let name = String(decoding: headers.storage[record.name], as: UTF8.self)
                guard let fieldName = HTTPField.Name(name) else { continue }
                return HTTPField(name: fieldName, value: String(decoding: headers.storage[record.value], as: UTF8.self))
            }
            return nil
        }
    }

    private func record(at offset: Int) -> (name: Range<Int>, value: Range<Int>, next: Int) {
        storage.withUnsafeBytes { raw in
            let nameLength = Int(raw.loadUnaligned(fromByteOffset: offset, as: UInt16.self))
            let valueLength = Int(raw.loadUnaligned(fromByteOffset: offset + 2, as: UInt32.self))
            let nameStart = offset + 6
            let valueStart = nameStart + nameLength
            return (nameStart..<valueStart, valueStart..<(valueStart + valueLength), valueStart + valueLength)
        }
    }

    /// Calls `body` with each value of `name` until it returns `false`.
    func forEachValue(of name: HTTPField.Name, _ body: (ArraySlice<UInt8>) -> Bool) {
        var wanted = name.canonicalName  // lowercase
        wanted.withUTF8 { wantedBytes in
            var offset = 0
            while offset < storage.count {
                let record = record(at: offset)
                offset = record.next
                guard record.name.count == wantedBytes.count else { continue }
                var equal = true
                for (stored, expected) in zip(storage[record.name], wantedBytes) where lowercased(stored) != expected {
                    equal = false
                    break
                }
                if equal, !body(storage[record.value]) { return }
            }
        }
    }
}

/// ASCII lowercase for letters only: OR-ing 0x20 would also fold `^` into `~`, both valid in names.
@inline(__always)
private func lowercased(_ byte: UInt8) -> UInt8 {
    (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
}

extension HTTPFields {
    /// The request's fields as swift-http-types fields, for APIs that take them.
    public init(_ headers: RequestHeaders) {
        self.init()
        for field in headers { append(field) }
    }
}
