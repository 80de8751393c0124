import Logging
import PostgresNIO
import Tessera

/// `LISTEN` on one channel, on a connection of its own outside the pool, for as long as the
/// task that runs it: what every instance uses to hear what the others changed.
///
/// When the connection drops (a restart of the database, a network cut, a terminated backend),
/// it connects again, waiting 0.2 s and doubling up to 5 s. A notification sent while nobody
/// listened is lost for good, so whoever relies on the channel must catch up each time
/// listening starts: ``run(started:received:interrupted:)`` says when.
public struct PostgresListener: Sendable {
    public let channel: String
    private let connections: PostgresConnections
    private let logger: Logger

    /// A listener on `channel` of the database `connections` reach.
    public init(channel: String, connections: PostgresConnections, logger: Logger) {
        self.channel = channel
        self.connections = connections
        self.logger = logger
    }

    /// Listens until the task is cancelled.
    ///
    /// - Parameters:
    ///   - started: runs each time listening begins, at first and after each reconnection,
    ///     before any notification heard since is `received`: the moment to catch up on what
    ///     was missed.
    ///   - received: each notification's payload, in the order they were sent.
    ///   - interrupted: the connection was lost; notifications may be missed until `started`
    ///     runs again.
    public func run(started: @Sendable () async -> Void, received: @Sendable (String) -> Void, interrupted: @Sendable () -> Void) async {
        var delay = Duration.milliseconds(200)
        var attempt = 0
        while !Task.isCancelled {
            attempt += 1
            do {
                let connection = try await PostgresConnection.connect(
                    configuration: connections.url.configuration(connectTimeout: connections.connectTimeout), id: -attempt, logger: logger)
                // Closed whichever way listening ends: PostgresNIO requires it of every connection.
                let failure: (any Error)?
                do {
                    try await withTaskCancellationHandler {
                        try await connection.listen(on: channel) { notifications in
                            if attempt > 1 { logger.notice("listening again", metadata: ["channel": "\(channel)"]) }
                            await started()
                            delay = .milliseconds(200)
                            for try await notification in notifications {
                                received(notification.payload)
                            }
                        }
                    } onCancel: {
                        let closing: EventLoopFuture<Void> = connection.close()  // ends the notifications, and with them the wait
                        _ = closing
                    }
                    failure = nil
                } catch {
                    failure = error
                }
                try? await connection.close()
                if let failure { throw failure }
                // The notifications ended without an error: as lost as a dropped connection.
                guard !Task.isCancelled else { return }
                interrupted()
            } catch {
                guard !Task.isCancelled else { return }
                interrupted()
                logger.warning("listener lost its connection", metadata: [
                    "channel": "\(channel)", "error": "\(DatabaseUnavailable(error).reason)", "retryIn": "\(delay)",
                ])
            }
            try? await Task.sleep(for: delay)
            delay = min(delay * 2, .seconds(5))
        }
    }
}
