import HTTPTypes
import Logging
import Synchronization

/// What every daemon of one server shares: immutable configuration and thread-safe counters.
/// Each daemon's callbacks reach it through their own ``DaemonContext``, which also holds the
/// state of that daemon's loop.
final class ServerCore: Sendable {
    let responder: any HTTPResponder
    let errorResponder: any HTTPErrorResponder
    /// The responder's, asked once: every request's target is matched against them.
    let secretPaths: SecretPaths
    let limits: HTTPServerLimits
    let defaultHeaders: DefaultHeaders
    let trustedProxies: TrustedProxies
    let logger: Logger
    /// Decided once: the level cannot change while the server runs, and this is read per request.
    let accessLogEnabled: Bool
    /// Requests between their first line and their completion.
    let inFlight = Atomic<Int>(0)
    let isShuttingDown = Atomic<Bool>(false)
    /// Every open connection, for the caps and the head deadline.
    let connections: OpenConnections

    init(
        responder: any HTTPResponder, errorResponder: any HTTPErrorResponder, configuration: HTTPServerConfiguration, connectionLimit: Int,
        logger: Logger
    ) {
        self.connections = OpenConnections(
            limit: connectionLimit, limitPerAddress: configuration.limits.maxConnectionsPerIP,
            uncappedAddresses: configuration.trustedProxies.addresses)
        self.responder = responder
        self.errorResponder = errorResponder
        self.secretPaths = responder.secretPaths
        self.limits = configuration.limits
        self.defaultHeaders = DefaultHeaders(configuration.defaultHeaders)
        self.trustedProxies = configuration.trustedProxies
        self.logger = logger
        self.accessLogEnabled = logger.logLevel <= .info
    }

    /// The answer to a `HEAD` whose `GET` would stream: rendered and discarded here, so that it
    /// carries the `Content-Length` the `GET` sends and the same headers, and libmicrohttpd sends
    /// the head alone. Any other answer is returned as it is.
    func withoutStream(_ response: Response, for request: Request) async -> Response {
        guard request.method == .head, response.body.isStream else { return response }
        do {
            var buffered = response
            buffered.body = .bytes(try await response.body.collect())
            buffered.headers[.transferEncoding] = nil
            return buffered
        } catch {
            return await self.response(to: request, after: .later { _ in throw error })
        }
    }

    /// The response to `request` once the work the responder left for later has run. Whatever it
    /// throws goes to the error responder as it is: what an error means is decided in one place,
    /// ``ThrownError``, not here.
    func response(to request: Request, after answer: NowOrLater<Void, Response>) async -> Response {
        do {
            return try await answer.value()
        } catch {
            if ThrownError.isServerFault(error) {
                logger.error(
                    "handler failed",
                    metadata: ["path": "\(request.loggedPath)", "error": "\(String(reflecting: error))", "request_id": "\(request.id)"])
            }
            return await errorResponder.response(for: error, to: request)
        }
    }
}
