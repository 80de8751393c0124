public import Tessera

extension DatabaseUnavailable {
    /// The database failure behind `error`, summed up in one line: the server's own message (a
    /// wrong password, a missing database) or the connection's failure.
    public init(_ error: any Error) {
        if let known = error as? DatabaseUnavailable {
            self = known
        } else if let error = error as? PostgresError {
            self.init(reason: error.message)
        } else {
            self.init(reason: String(describing: error))
        }
    }
}
