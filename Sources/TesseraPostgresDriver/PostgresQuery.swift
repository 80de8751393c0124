/// A statement and the values bound to its `$1`, `$2`, …: written with interpolation, each
/// interpolated value becomes the next placeholder, never text in the SQL.
///
///     try await connections.query("SELECT name FROM product WHERE id = \(id) AND stock > \(minimum)")
///
/// Text that must be SQL (a column list built from constants) goes in with
/// ``init(unsafeSQL:binds:)``, or as `\(unescaped: …)`.
public struct PostgresQuery: Sendable, Hashable, ExpressibleByStringInterpolation {
    /// The statement, with `$n` placeholders.
    public var sql: String
    /// What the placeholders stand for, `$1` first.
    public var binds: PostgresBindings

    /// SQL written by the caller, with `binds` for its placeholders: it is run as it is.
    public init(unsafeSQL sql: String, binds: PostgresBindings = PostgresBindings()) {
        self.sql = sql
        self.binds = binds
    }

    public init(stringLiteral value: String) {
        self.init(unsafeSQL: value)
    }

    public init(stringInterpolation: StringInterpolation) {
        self.init(unsafeSQL: stringInterpolation.sql, binds: stringInterpolation.binds)
    }

    public struct StringInterpolation: StringInterpolationProtocol {
        var sql = ""
        var binds = PostgresBindings()

        public init(literalCapacity: Int, interpolationCount: Int) {
            sql.reserveCapacity(literalCapacity + 3 * interpolationCount)
        }

        public mutating func appendLiteral(_ literal: String) {
            sql += literal
        }

        /// A value, as the next placeholder.
        public mutating func appendInterpolation(_ value: some PostgresEncodable) {
            binds.append(value)
            sql += "$\(binds.count)"
        }

        /// An optional value: `NULL` when it is `nil`.
        public mutating func appendInterpolation(_ value: (some PostgresEncodable)?) {
            if let value {
                binds.append(value)
            } else {
                binds.appendNull()
            }
            sql += "$\(binds.count)"
        }

        /// Text that is SQL, as it is: only for what the program itself wrote.
        public mutating func appendInterpolation(unescaped text: String) {
            sql += text
        }
    }
}

/// The values of a statement's placeholders, in order, as PostgreSQL's text format (or bytes
/// for `bytea`), each with its type.
public struct PostgresBindings: Sendable, Hashable {
    /// One placeholder's value: its type's OID, and its bytes in the given format (`nil` is NULL).
    package struct Value: Sendable, Hashable {
        let type: UInt32
        let isBinary: Bool
        let bytes: [UInt8]?
    }

    private(set) var values: [Value] = []

    public init() {}

    public init(capacity: Int) {
        values.reserveCapacity(capacity)
    }

    /// Integers bound in order, `$1` first: for statements built from fragments, where string
    /// interpolation cannot number the placeholders.
    public init(_ values: Int...) {
        self.init(capacity: values.count)
        for value in values { append(value) }
    }

    /// How many values are bound.
    public var count: Int { values.count }

    /// Binds the next placeholder to `value`.
    public mutating func append(_ value: some PostgresEncodable) {
        values.append(value.postgresValue)
    }

    /// Binds the next placeholder to `NULL`.
    public mutating func appendNull() {
        values.append(Value(type: 0, isBinary: false, bytes: nil))
    }

    /// Refuses a text value with a NUL byte, as PostgreSQL does (SQLSTATE 22021): libpq sends
    /// text values as C strings, so it would otherwise arrive cut short at the NUL, silently.
    package func checkSendable() throws {
        for (index, value) in values.enumerated() where !value.isBinary && value.bytes?.contains(0) == true {
            throw PostgresError(
                sqlState: "22021", message: "the text bound to $\(index + 1) contains a NUL byte, which PostgreSQL's text cannot hold")
        }
    }
}

/// A Swift value that can stand for a placeholder.
public protocol PostgresEncodable: Sendable {
    /// The value's PostgreSQL type.
    static var postgresType: PostgresType { get }
    /// The value in PostgreSQL's text format (or as raw bytes, for a binary type).
    var postgresBytes: [UInt8] { get }
}

extension PostgresEncodable {
    package var postgresValue: PostgresBindings.Value {
        PostgresBindings.Value(type: Self.postgresType.oid, isBinary: Self.postgresType == .bytea, bytes: postgresBytes)
    }
}

/// The PostgreSQL types Tessera binds and reads, by their OIDs.
public struct PostgresType: Sendable, Hashable {
    public let oid: UInt32
    public static let bool = PostgresType(oid: 16)
    public static let bytea = PostgresType(oid: 17)
    public static let int8 = PostgresType(oid: 20)
    public static let int2 = PostgresType(oid: 21)
    public static let int4 = PostgresType(oid: 23)
    public static let text = PostgresType(oid: 25)
    public static let json = PostgresType(oid: 114)
    public static let float4 = PostgresType(oid: 700)
    public static let float8 = PostgresType(oid: 701)
    public static let int4Array = PostgresType(oid: 1007)
    public static let textArray = PostgresType(oid: 1009)
    public static let int8Array = PostgresType(oid: 1016)
    public static let float8Array = PostgresType(oid: 1022)
    public static let timestamptz = PostgresType(oid: 1184)
    public static let jsonb = PostgresType(oid: 3802)
    /// Left for the server to infer from the statement.
    public static let unknown = PostgresType(oid: 0)
}
