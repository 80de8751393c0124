import Foundation

/// The `Encoder` behind ``JSONWriter``: one buffer for a whole value, whatever its depth.
///
/// The state lives in the buffer's header and is reached through a pointer, not through a
/// class's stored properties: Swift checks every access to a class's `var` for exclusivity at
/// run time, which cost `/cached-queries` a fifth of its CPU in `swift_beginAccess` when the
/// encoder was a class (`Benchmarks/profile-split.py`). The same encoder is handed to every
/// nested value (``JSONWritingState/valueDepth`` says which slot it fills), so encoding a field
/// allocates nothing.
struct JSONWritingEncoder: Encoder {
    let buffer: ManagedBuffer<JSONWritingState, Void>

    init(bytes: [UInt8], options: JSONWriter) {
        buffer = .create(minimumCapacity: 0) { _ in JSONWritingState(bytes: bytes, options: options) }
    }

    /// The state, valid while ``buffer`` lives, which every container holds.
    var state: UnsafeMutablePointer<JSONWritingState> { buffer.withUnsafeMutablePointerToHeader { $0 } }

    var codingPath: [any CodingKey] { state.pointee.codingPath }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func encodeTopLevel(_ value: some Encodable) throws {
        if try state.pointee.writePrimitive(value) { return }
        _ = state.pointee.pushSlot()
        try value.encode(to: self)
        if state.pointee.open[0].kind == .slot {
            throw EncodingError.invalidValue(
                value, EncodingError.Context(codingPath: [], debugDescription: "Top-level \(type(of: value)) did not encode any values."))
        }
        state.pointee.close(downTo: 0)
    }

    /// Runs `value.encode(to:)` for the slot at `depth`, then closes what it opened.
    func encodeNested(_ value: some Encodable, depth: Int) throws {
        let outer = state.pointee.valueDepth
        state.pointee.valueDepth = depth
        defer { state.pointee.valueDepth = outer }
        try value.encode(to: self)
        state.pointee.close(downTo: depth)
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let depth = state.pointee.valueDepth
        let id = state.pointee.openContainer(.object, atSlot: depth)
        return KeyedEncodingContainer(JSONKeyedContainer<Key>(encoder: self, depth: depth, id: id))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let depth = state.pointee.valueDepth
        let id = state.pointee.openContainer(.array, atSlot: depth)
        return JSONUnkeyedContainer(encoder: self, depth: depth, id: id)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        let depth = state.pointee.valueDepth
        return JSONSingleValueContainer(encoder: self, depth: depth, id: state.pointee.open[depth].id)
    }
}

/// What ``JSONWritingEncoder`` writes into, and its stack of what is open: objects, arrays, and
/// *slots*, the place of a value whose `encode(to:)` has not yet said whether it is an object, an
/// array or a single value. Writing into an outer container first closes everything inside it,
/// which is how a nested value's containers end; a container whose entry has gone from the
/// stack has been left for good.
struct JSONWritingState {
    enum Kind {
        case object
        case array
        /// A value's place, not yet written: `{}` if the value writes nothing.
        case slot
        /// A value's place, written by a single value container.
        case filledSlot
    }

    struct Entry {
        let id: UInt32
        var kind: Kind
        var count = 0
        /// For sorted keys: each member's start and its key's bytes, quotes included.
        var members: [(start: Int, key: Range<Int>)] = []
    }

    var bytes: [UInt8]
    let options: JSONWriter
    var codingPath: [any CodingKey] = []

    private(set) var open: [Entry] = []
    /// The slot the value being encoded fills: its index in ``open``.
    var valueDepth = 0
    private var nextID: UInt32 = 0

    init(bytes: [UInt8], options: JSONWriter) {
        self.bytes = bytes
        self.options = options
    }

    // MARK: The stack

    /// Opens a place for a value at the top of the stack and returns its index.
    mutating func pushSlot() -> Int {
        nextID &+= 1
        open.append(Entry(id: nextID, kind: .slot))
        return open.count - 1
    }

    /// Closes every entry at `depth` and above.
    mutating func close(downTo depth: Int) {
        while open.count > depth {
            let entry = open.removeLast()
            switch entry.kind {
            case .object:
                if options.sortsKeys, entry.members.count > 1 { sortMembers(entry.members) }
                bytes.append(UInt8(ascii: "}"))
            case .array: bytes.append(UInt8(ascii: "]"))
            case .slot: bytes.append(contentsOf: [UInt8(ascii: "{"), UInt8(ascii: "}")])
            case .filledSlot: break
            }
        }
    }

    /// Checks that the container at `depth` with `id` is still open, closes what is inside it,
    /// and writes the comma before its next member.
    mutating func beginMember(depth: Int, id: UInt32) throws {
        guard depth < open.count, open[depth].id == id else { throw JSONWriter.OutOfOrder(codingPath: codingPath) }
        close(downTo: depth + 1)
        if open[depth].count > 0 { bytes.append(UInt8(ascii: ",")) }
        open[depth].count += 1
    }

    /// ``beginMember(depth:id:)`` for an object's member, and its key.
    mutating func beginMember(depth: Int, id: UInt32, key: String) throws {
        try beginMember(depth: depth, id: id)
        let start = bytes.count
        writeString(key)
        if options.sortsKeys { open[depth].members.append((start, start..<bytes.count)) }
        bytes.append(UInt8(ascii: ":"))
    }

    /// Turns the slot at `depth` into an object or an array, or finds the one this value
    /// already opened there (a class and its superclass may both ask for the same object).
    mutating func openContainer(_ kind: Kind, atSlot depth: Int) -> UInt32 {
        precondition(depth < open.count, "a JSON encoder was asked for a container after its value ended")
        close(downTo: depth + 1)
        if open[depth].kind == .slot {
            open[depth].kind = kind
            bytes.append(UInt8(ascii: kind == .object ? "{" : "["))
        } else {
            precondition(
                open[depth].kind == kind,
                "Attempt to open a second kind of container for a value at \(codingPath.map(\.stringValue))")
        }
        return open[depth].id
    }

    /// Opens a container nested in the member just begun, and returns its depth and id.
    mutating func openNested(_ kind: Kind) -> (depth: Int, id: UInt32) {
        nextID &+= 1
        open.append(Entry(id: nextID, kind: kind))
        bytes.append(UInt8(ascii: kind == .object ? "{" : "["))
        return (open.count - 1, nextID)
    }

    /// Marks the slot at `depth` as written by a single value, after checking it is free.
    mutating func fillSlot(depth: Int, id: UInt32) throws {
        guard depth < open.count, open[depth].id == id else { throw JSONWriter.OutOfOrder(codingPath: codingPath) }
        close(downTo: depth + 1)
        precondition(open[depth].kind == .slot, "Attempt to encode a second value into a single value container")
        open[depth].kind = .filledSlot
    }

    /// Rewrites the object whose members start at `members`, in the byte order of their keys.
    private mutating func sortMembers(_ members: [(start: Int, key: Range<Int>)]) {
        let end = bytes.count
        var spans: [(key: Range<Int>, body: Range<Int>)] = []
        spans.reserveCapacity(members.count)
        for (index, member) in members.enumerated() {
            // A member runs to the comma before the next one.
            let stop = index + 1 < members.count ? members[index + 1].start - 1 : end
            spans.append((member.key, member.start..<stop))
        }
        let sorted = spans.enumerated().sorted { left, right in
            let order = bytes[left.element.key].lexicographicallyPrecedes(bytes[right.element.key])
            if order { return true }
            if bytes[right.element.key].lexicographicallyPrecedes(bytes[left.element.key]) { return false }
            return left.offset < right.offset
        }
        var rewritten: [UInt8] = []
        rewritten.reserveCapacity(end - members[0].start)
        for (index, span) in sorted.enumerated() {
            if index > 0 { rewritten.append(UInt8(ascii: ",")) }
            rewritten.append(contentsOf: bytes[span.element.body])
        }
        bytes.replaceSubrange(members[0].start..<end, with: rewritten)
    }
}

/// The encoder `superEncoder()` returns: the same buffer, its own slot.
struct JSONSlotEncoder: Encoder {
    let encoder: JSONWritingEncoder
    let depth: Int
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let id = encoder.state.pointee.openContainer(.object, atSlot: depth)
        return KeyedEncodingContainer(JSONKeyedContainer<Key>(encoder: encoder, depth: depth, id: id))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let id = encoder.state.pointee.openContainer(.array, atSlot: depth)
        return JSONUnkeyedContainer(encoder: encoder, depth: depth, id: id)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        JSONSingleValueContainer(encoder: encoder, depth: depth, id: encoder.state.pointee.open[depth].id)
    }
}
