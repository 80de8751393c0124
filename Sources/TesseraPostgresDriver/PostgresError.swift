import CLibPQ

/// A statement the server refused: its SQLSTATE and message, as PostgreSQL reports them.
public struct PostgresError: Error, CustomStringConvertible, Sendable {
    /// The five-character SQLSTATE, such as `23505` for a unique violation.
    public let sqlState: String
    /// The server's message, in the server's language.
    public let message: String
    /// The server's detail, if it gave one.
    public let detail: String?
    /// The constraint a violation concerns, if any.
    public let constraint: String?

    package init(_ result: OpaquePointer) {
        func field(_ code: Int32) -> String? { PQresultErrorField(result, code).map { String(cString: $0) } }
        sqlState = field(Int32(UInt8(ascii: "C"))) ?? "XX000"
        message = field(Int32(UInt8(ascii: "M"))) ?? String(cString: PQresultErrorMessage(result)).asOneLine()
        detail = field(Int32(UInt8(ascii: "D")))
        constraint = field(Int32(UInt8(ascii: "n")))
    }

    public init(sqlState: String, message: String, detail: String? = nil, constraint: String? = nil) {
        self.sqlState = sqlState
        self.message = message
        self.detail = detail
        self.constraint = constraint
    }

    public var description: String { "\(message) (SQLSTATE \(sqlState))" }

    /// A unique constraint was violated.
    public var isUniqueViolation: Bool { sqlState == "23505" }

    /// What a server answers while it cannot serve: shutting down or starting up (57P…), too
    /// many connections (53300), a connection failure (08…).
    public var meansUnavailable: Bool {
        sqlState.hasPrefix("57P") || sqlState == "53300" || sqlState.hasPrefix("08")
    }
}
