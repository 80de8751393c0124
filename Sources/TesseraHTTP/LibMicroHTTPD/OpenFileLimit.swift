import Logging

#if canImport(Glibc)
import Glibc
#endif

/// Every connection is an open file, and the usual soft limit of 1024 allows about a thousand
/// connections, whatever the server is configured for. Any process may raise its soft limit
/// up to the hard one, so the server does that at start, and says what it really got.
enum OpenFileLimit {
    /// Descriptors kept for what is not a connection: the database, files being sent, logs.
    static let descriptorsForEverythingElse = 128

    /// Raises the soft limit to the hard limit; returns how many connections fit, at most `wanted`.
    static func raise(wantingConnections wanted: Int, logger: Logger) -> Int {
        let openFiles = raiseSoftLimit()
        let available = max(1, openFiles - descriptorsForEverythingElse)
        let fitting = min(wanted, max(1, available - OpenConnections.overflow(of: available)))
        if fitting < wanted {
            logger.warning(
                "the open-files limit allows fewer connections than configured",
                metadata: [
                    "configured": "\(wanted)", "openFilesLimit": "\(openFiles)", "connectionLimit": "\(fitting)",
                ])
        }
        return fitting
    }

    private static func raiseSoftLimit() -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 1024 }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
        }
        return Int(clamping: min(limit.rlim_cur, rlim_t(Int32.max)))
    }
}
