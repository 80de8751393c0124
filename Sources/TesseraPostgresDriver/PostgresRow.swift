import CLibPQ

/// A statement's answer as libpq keeps it. Its rows are read from it in place, no column
/// copied, and it is freed when the last row read from it goes.
package final class PostgresResult: @unchecked Sendable {
    // @unchecked: libpq never changes a result once made, and reading one needs no lock.
    package let pointer: OpaquePointer

    package init(_ pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit {
        PQclear(pointer)
    }

    package var rows: [PostgresRow] {
        (0..<PQntuples(pointer)).map { PostgresRow(result: self, index: $0) }
    }
}

/// One row of a statement's answer, its columns as PostgreSQL's text format: decoded by
/// position into Swift types.
///
///     let (id, name) = try row.decode((Int, String).self)
public struct PostgresRow: Sendable {
    package let result: PostgresResult
    package let index: Int32

    /// How many columns the row has.
    public var count: Int { Int(PQnfields(result.pointer)) }

    /// The columns, from the first, as the given types: `row.decode((Int, String?).self)`.
    public func decode<each Column: PostgresDecodable>(_ columns: (repeat each Column).Type) throws -> (repeat each Column) {
        var column = 0
        let count = self.count
        func next<T: PostgresDecodable>(_ type: T.Type) throws -> T {
            defer { column += 1 }
            guard column < count else { throw PostgresDecodingError(column: column, reason: "the row has \(count) columns") }
            return try self[column].decode(type, column: column)
        }
        return (repeat try next((each Column).self))
    }

    /// The first column as `T`.
    public func decode<T: PostgresDecodable>(_ type: T.Type) throws -> T {
        guard count > 0 else { throw PostgresDecodingError(column: 0, reason: "the row has no column") }
        return try self[0].decode(type, column: 0)
    }

    /// The columns by position, for rows read in parts.
    public func makeRandomAccess() -> PostgresRandomAccessRow {
        PostgresRandomAccessRow(row: self)
    }

    package subscript(column: Int) -> PostgresCell {
        PostgresCell(result: result, row: index, column: Int32(column))
    }
}

/// A row's columns by position.
public struct PostgresRandomAccessRow: Sendable {
    package let row: PostgresRow

    public var count: Int { row.count }

    public subscript(index: Int) -> PostgresCell {
        row[index]
    }
}

/// One column of one row, read where the answer holds it.
public struct PostgresCell: Sendable {
    package let result: PostgresResult
    package let row: Int32
    package let column: Int32

    /// Whether the column is NULL.
    public var isNull: Bool { PQgetisnull(result.pointer, row, column) == 1 }
    /// The column's type OID.
    public var type: UInt32 { UInt32(PQftype(result.pointer, column)) }

    /// The column as `T`.
    public func decode<T: PostgresDecodable>(_ type: T.Type) throws -> T {
        try decode(type, column: Int(column))
    }

    package func decode<T: PostgresDecodable>(_ type: T.Type, column index: Int) throws -> T {
        let oid = PostgresType(oid: self.type)
        do {
            guard !isNull, let value = PQgetvalue(result.pointer, row, column) else { return try T(postgresText: nil, type: oid) }
            return try T(postgresText: UnsafeRawBufferPointer(start: value, count: Int(PQgetlength(result.pointer, row, column))), type: oid)
        } catch {
            throw PostgresDecodingError(column: index, reason: error.reason)
        }
    }
}

/// A Swift type a column can be read as.
public protocol PostgresDecodable {
    /// The value from a column's text (`nil` for NULL) of the given type. The bytes are the
    /// answer's own, read in place: they are valid during the call only, so keep a copy.
    init(postgresText bytes: UnsafeRawBufferPointer?, type: PostgresType) throws(PostgresDecodingError)
}

/// A column that is not what the caller asked for.
public struct PostgresDecodingError: Error, CustomStringConvertible {
    public let column: Int
    public let reason: String

    public init(column: Int = 0, reason: String) {
        self.column = column
        self.reason = reason
    }

    public var description: String { "column \(column): \(reason)" }
}

extension PostgresDecodingError {
    package static let null = PostgresDecodingError(reason: "NULL where a value was expected")

    package static func notA(_ what: String, _ bytes: some Collection<UInt8>) -> PostgresDecodingError {
        PostgresDecodingError(reason: "\(String(decoding: bytes.prefix(40), as: UTF8.self).debugDescription) is not \(what)")
    }
}
