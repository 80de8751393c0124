import Foundation

/// An object being written: each member goes out as it is encoded.
struct JSONKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: JSONWritingEncoder
    let depth: Int
    let id: UInt32

    var codingPath: [any CodingKey] { encoder.codingPath }

    private func begin(_ key: Key) throws {
        try encoder.state.pointee.beginMember(depth: depth, id: id, key: key.stringValue)
    }

    mutating func encodeNil(forKey key: Key) throws {
        try begin(key)
        encoder.state.pointee.writeNull()
    }

    mutating func encode(_ value: Bool, forKey key: Key) throws {
        try begin(key)
        encoder.state.pointee.writeBool(value)
    }

    mutating func encode(_ value: String, forKey key: Key) throws {
        try begin(key)
        encoder.state.pointee.writeString(value)
    }

    mutating func encode(_ value: Double, forKey key: Key) throws {
        try begin(key)
        try encoder.state.pointee.writeDouble(value)
    }

    mutating func encode(_ value: Float, forKey key: Key) throws {
        try begin(key)
        try encoder.state.pointee.writeFloat(value)
    }

    mutating func encode(_ value: Int, forKey key: Key) throws {
        try begin(key)
        encoder.state.pointee.writeInteger(Int64(value))
    }
    mutating func encode(_ value: Int8, forKey key: Key) throws {
        try begin(key)
        encoder.state.pointee.writeInteger(Int64(value))
    }
    mutating func encode(_ value: Int16, forKey key: Key) throws {
        try begin(key)
        encoder.state.pointee.writeInteger(Int64(value))
    }
    mutating func encode(_ value: Int32, forKey key: Key) throws {
        try begin(key)
        encoder.state.pointee.writeInteger(Int64(value))
    }
    mutating func encode(_ value: Int64, forKey key: Key) throws {
        try begin(key)
        encoder.state.pointee.writeInteger(Int64(value))
    }
    mutating func encode(_ value: UInt, forKey key: Key) throws {
        try begin(key)
        encoder.state.pointee.writeInteger(UInt64(value))
    }
    mutating func encode(_ value: UInt8, forKey key: Key) throws {
        try begin(key)
        encoder.state.pointee.writeInteger(UInt64(value))
    }
    mutating func encode(_ value: UInt16, forKey key: Key) throws {
        try begin(key)
        encoder.state.pointee.writeInteger(UInt64(value))
    }
    mutating func encode(_ value: UInt32, forKey key: Key) throws {
        try begin(key)
        encoder.state.pointee.writeInteger(UInt64(value))
    }
    mutating func encode(_ value: UInt64, forKey key: Key) throws {
        try begin(key)
        encoder.state.pointee.writeInteger(UInt64(value))
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try begin(key)
        if try encoder.state.pointee.writePrimitive(value) { return }
        encoder.state.pointee.codingPath.append(key)
        defer { encoder.state.pointee.codingPath.removeLast() }
        try encoder.encodeNested(value, depth: encoder.state.pointee.pushSlot())
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        beginOrTrap(key)
        let (depth, id) = encoder.state.pointee.openNested(.object)
        return KeyedEncodingContainer(JSONKeyedContainer<NestedKey>(encoder: encoder, depth: depth, id: id))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        beginOrTrap(key)
        let (depth, id) = encoder.state.pointee.openNested(.array)
        return JSONUnkeyedContainer(encoder: encoder, depth: depth, id: id)
    }

    mutating func superEncoder() -> any Encoder {
        superEncoder(named: JSONSuperKey())
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        superEncoder(named: key)
    }

    private func superEncoder(named key: some CodingKey) -> any Encoder {
        do {
            try encoder.state.pointee.beginMember(depth: depth, id: id, key: key.stringValue)
        } catch {
            preconditionFailure("\(error)")
        }
        return JSONSlotEncoder(encoder: encoder, depth: encoder.state.pointee.pushSlot(), codingPath: encoder.codingPath + [key])
    }

    /// The nested-container calls cannot throw, so a container left for a later sibling traps.
    private func beginOrTrap(_ key: Key) {
        do {
            try begin(key)
        } catch {
            preconditionFailure("\(error)")
        }
    }
}

/// What an array and a single value container share: a value goes at the next position once
/// ``beginValue()`` has made room for it (a comma in an array, the slot in a single value), so
/// one set of writers for JSON's own kinds serves both.
protocol JSONPositionalContainer {
    var encoder: JSONWritingEncoder { get }
    func beginValue() throws
}

extension JSONPositionalContainer {
    mutating func encodeNil() throws {
        try beginValue()
        encoder.state.pointee.writeNull()
    }

    mutating func encode(_ value: Bool) throws {
        try beginValue()
        encoder.state.pointee.writeBool(value)
    }

    mutating func encode(_ value: String) throws {
        try beginValue()
        encoder.state.pointee.writeString(value)
    }

    mutating func encode(_ value: Double) throws {
        try beginValue()
        try encoder.state.pointee.writeDouble(value)
    }

    mutating func encode(_ value: Float) throws {
        try beginValue()
        try encoder.state.pointee.writeFloat(value)
    }

    mutating func encode(_ value: Int) throws {
        try beginValue()
        encoder.state.pointee.writeInteger(Int64(value))
    }

    mutating func encode(_ value: Int8) throws {
        try beginValue()
        encoder.state.pointee.writeInteger(Int64(value))
    }

    mutating func encode(_ value: Int16) throws {
        try beginValue()
        encoder.state.pointee.writeInteger(Int64(value))
    }

    mutating func encode(_ value: Int32) throws {
        try beginValue()
        encoder.state.pointee.writeInteger(Int64(value))
    }

    mutating func encode(_ value: Int64) throws {
        try beginValue()
        encoder.state.pointee.writeInteger(Int64(value))
    }

    mutating func encode(_ value: UInt) throws {
        try beginValue()
        encoder.state.pointee.writeInteger(UInt64(value))
    }

    mutating func encode(_ value: UInt8) throws {
        try beginValue()
        encoder.state.pointee.writeInteger(UInt64(value))
    }

    mutating func encode(_ value: UInt16) throws {
        try beginValue()
        encoder.state.pointee.writeInteger(UInt64(value))
    }

    mutating func encode(_ value: UInt32) throws {
        try beginValue()
        encoder.state.pointee.writeInteger(UInt64(value))
    }

    mutating func encode(_ value: UInt64) throws {
        try beginValue()
        encoder.state.pointee.writeInteger(UInt64(value))
    }
}

/// An array being written: each element goes out as it is encoded.
struct JSONUnkeyedContainer: UnkeyedEncodingContainer, JSONPositionalContainer {
    let encoder: JSONWritingEncoder
    let depth: Int
    let id: UInt32

    var codingPath: [any CodingKey] { encoder.codingPath }
    var count: Int {
        let open = encoder.state.pointee.open
        return depth < open.count && open[depth].id == id ? open[depth].count : 0
    }

    func beginValue() throws {
        try encoder.state.pointee.beginMember(depth: depth, id: id)
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try beginValue()
        if try encoder.state.pointee.writePrimitive(value) { return }
        encoder.state.pointee.codingPath.append(JSONIndexKey(count - 1))
        defer { encoder.state.pointee.codingPath.removeLast() }
        try encoder.encodeNested(value, depth: encoder.state.pointee.pushSlot())
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        beginOrTrap()
        let (depth, id) = encoder.state.pointee.openNested(.object)
        return KeyedEncodingContainer(JSONKeyedContainer<NestedKey>(encoder: encoder, depth: depth, id: id))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        beginOrTrap()
        let (depth, id) = encoder.state.pointee.openNested(.array)
        return JSONUnkeyedContainer(encoder: encoder, depth: depth, id: id)
    }

    mutating func superEncoder() -> any Encoder {
        beginOrTrap()
        return JSONSlotEncoder(encoder: encoder, depth: encoder.state.pointee.pushSlot(), codingPath: encoder.codingPath + [JSONIndexKey(count - 1)])
    }

    /// The nested-container calls cannot throw, so an array left for a later sibling traps.
    private func beginOrTrap() {
        do {
            try beginValue()
        } catch {
            preconditionFailure("\(error)")
        }
    }
}

/// A value's one value: written in its slot, after which the slot is full.
struct JSONSingleValueContainer: SingleValueEncodingContainer, JSONPositionalContainer {
    let encoder: JSONWritingEncoder
    let depth: Int
    let id: UInt32

    var codingPath: [any CodingKey] { encoder.codingPath }

    func beginValue() throws {
        try encoder.state.pointee.fillSlot(depth: depth, id: id)
    }

    /// A wrapper's inner value fills the wrapper's slot: it goes in a slot of its own, one
    /// deeper, which ends when the inner value does.
    mutating func encode<T: Encodable>(_ value: T) throws {
        try beginValue()
        if try encoder.state.pointee.writePrimitive(value) { return }
        try encoder.encodeNested(value, depth: encoder.state.pointee.pushSlot())
    }
}
