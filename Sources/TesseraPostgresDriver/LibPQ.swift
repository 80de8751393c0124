package import CLibPQ
import CTesseraTLS
package import TesseraLoop

/// What both connection kinds (``LoopConnection`` on an event loop, ``BlockingConnection`` on a
/// thread that may block) read from libpq the same way: its messages, a command's count, a
/// failed statement's error, and bytes OpenSSL holds that the socket will not announce.
package enum LibPQ {
    /// The connection's last error, as one line.
    package static func message(_ connection: OpaquePointer) -> String {
        String(cString: PQerrorMessage(connection)).asOneLine()
    }

    /// How many rows a command changed (`UPDATE 3`: 3), 0 for one that says nothing.
    package static func changedRows(_ result: OpaquePointer) -> Int {
        Int(String(cString: PQcmdTuples(result))) ?? 0
    }

    /// What a statement that failed throws: `DatabaseUnavailable` when the server said it is
    /// going away or cannot serve (a 503, and a connection not to reuse), else its error.
    package static func failure(of result: OpaquePointer) -> any Error {
        let error = PostgresError(result)
        return error.meansUnavailable ? DatabaseUnavailable(reason: error.message) : error
    }

    /// Whether OpenSSL holds bytes it has decrypted that libpq has not read: they never make
    /// the socket readable again, so they are read at once.
    package static func hasDecryptedBytes(_ connection: OpaquePointer) -> Bool {
        PQsslInUse(connection) == 1 && tessera_tls_pending(PQsslStruct(connection, "OpenSSL")) > 0
    }
}

extension String {
    /// libpq's messages as one line: they end in a newline and may wrap a hint onto a second,
    /// and a log line or an exit message must stay one line.
    package func asOneLine() -> String {
        split(whereSeparator: \.isNewline)
            .map { $0.trimmingPrefix(while: \.isWhitespace) }
            .filter { !$0.isEmpty }
            .joined(separator: " ")
    }
}
