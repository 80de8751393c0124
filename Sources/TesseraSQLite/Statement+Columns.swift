public import GRDB
import GRDBSQLite

/// The current row of a statement being stepped, read column by column with SQLite's C API.
///
/// GRDB's rows are made for every kind of read: a `Row` per row, a `DatabaseValue` per column,
/// names looked up. A page that reads the same dozen rows for every request pays for all of it,
/// and `perf` showed it; this reads the columns by position, straight from the statement, and
/// makes nothing but the values asked for. The statement stays GRDB's (prepared and cached on
/// GRDB's connection), so everything else about it (arguments, errors, the schema it was
/// prepared against) is GRDB's too.
public struct SQLiteColumns: ~Copyable {
    fileprivate let statement: SQLiteStatement

    /// The integer in column `index` (from 0); 0 for NULL.
    public func int(_ index: Int32) -> Int {
        Int(sqlite3_column_int64(statement, index))
    }

    /// The text in column `index`; empty for NULL.
    public func string(_ index: Int32) -> String {
        guard let text = sqlite3_column_text(statement, index) else { return "" }
        let count = Int(sqlite3_column_bytes(statement, index))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    /// The floating-point number in column `index`; 0 for NULL.
    public func double(_ index: Int32) -> Double {
        sqlite3_column_double(statement, index)
    }
}

extension Statement {
    /// Binds `arguments`, then steps the statement to its end, handing each row's columns to
    /// `body`, and resets it for its next use. For reads on a measured hot path (see
    /// ``SQLiteColumns``); anything else reads through GRDB's rows.
    public func forEachRow(_ arguments: StatementArguments = StatementArguments(), _ body: (borrowing SQLiteColumns) throws -> Void) throws {
        try setArguments(arguments)
        defer { sqlite3_reset(sqliteStatement) }
        let columns = SQLiteColumns(statement: sqliteStatement)
        while true {
            switch sqlite3_step(sqliteStatement) {
            case SQLITE_ROW:
                try body(columns)
            case SQLITE_DONE:
                return
            case let code:
                throw DatabaseError(
                    resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(sqlite3_db_handle(sqliteStatement))), sql: sql)
            }
        }
    }
}
