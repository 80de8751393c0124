/// One row of a statement's answer, its columns as PostgreSQL's text format: decoded by
/// position into Swift types.
///
///     let (id, name) = try row.decode((Int, String).self)
public struct PostgresRow: Sendable {
    /// Each column's bytes (`nil` for NULL) and type.
    let cells: [PostgresCell]

    /// The columns, from the first, as the given types: `row.decode((Int, String?).self)`.
    public func decode<each Column: PostgresDecodable>(_ columns: (repeat each Column).Type) throws -> (repeat each Column) {
        var index = 0
        func next<T: PostgresDecodable>(_ type: T.Type) throws -> T {
            defer { index += 1 }
            guard index < cells.count else { throw PostgresDecodingError(column: index, reason: "the row has \(cells.count) columns") }
            return try cells[index].decode(type, column: index)
        }
        return (repeat try next((each Column).self))
    }

    /// The first column as `T`.
    public func decode<T: PostgresDecodable>(_ type: T.Type) throws -> T {
        guard let first = cells.first else { throw PostgresDecodingError(column: 0, reason: "the row has no column") }
        return try first.decode(type, column: 0)
    }

    /// The columns by position, for rows read in parts.
    public func makeRandomAccess() -> PostgresRandomAccessRow {
        PostgresRandomAccessRow(cells: cells)
    }
}

/// A row's columns by position.
public struct PostgresRandomAccessRow: Sendable {
    let cells: [PostgresCell]

    public var count: Int { cells.count }

    public subscript(index: Int) -> PostgresCell {
        cells[index]
    }
}

/// One column of one row.
public struct PostgresCell: Sendable {
    /// The column's bytes in PostgreSQL's text format; `nil` for NULL.
    public let bytes: [UInt8]?
    /// The column's type OID.
    public let type: UInt32

    /// The column as `T`.
    public func decode<T: PostgresDecodable>(_ type: T.Type) throws -> T {
        try decode(type, column: 0)
    }

    func decode<T: PostgresDecodable>(_ type: T.Type, column: Int) throws -> T {
        do {
            return try T(postgresText: bytes, type: PostgresType(oid: self.type))
        } catch {
            throw PostgresDecodingError(column: column, reason: error.reason)
        }
    }
}

/// A Swift type a column can be read as.
public protocol PostgresDecodable {
    /// The value from a column's text (`nil` for NULL) of the given type.
    init(postgresText bytes: [UInt8]?, type: PostgresType) throws(PostgresDecodingError)
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
    static let null = PostgresDecodingError(reason: "NULL where a value was expected")

    static func notA(_ what: String, _ bytes: [UInt8]) -> PostgresDecodingError {
        PostgresDecodingError(reason: "\(String(decoding: bytes.prefix(40), as: UTF8.self).debugDescription) is not \(what)")
    }
}
