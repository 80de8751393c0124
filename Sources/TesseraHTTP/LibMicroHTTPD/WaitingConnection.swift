/// Something suspended on a connection, waiting for Swift code (a handler, or a streamed body's
/// producer), that can be cut short: libmicrohttpd never times a suspended connection out, so
/// its loop's ``DeadlineList`` does, at ``HTTPServerLimits/responseTimeout``.
protocol WaitingConnection: DeadlineListMember {
    /// Answers (or ends) the connection now, because its deadline passed or the server is stopping.
    func expire(reason: HTTPError)
}

extension WaitingConnection {
    func deadlinePassed() {
        expire(reason: HTTPError(.tooSlow))
    }
}
