public import Logging
import Metrics
public import ServiceLifecycle
import Tessera
import Tracing

/// Sends the outbox's mail through a transport, one at a time, beside the server: add it to
/// `ApplicationBuilder.services`.
///
/// A failed attempt is tried again after a delay that doubles each time (1 s, 2 s, 4 s … up to
/// ``Configuration/longestDelay``), so a mail server that is down for a while delays mail but
/// loses none. A refusal of the mail itself (``SMTPError/refusesThisMail``: a `5xx` to its
/// recipient or its message) or the ``Configuration/maxAttempts``th failure makes the mail a
/// dead letter instead (logged as an error, counted, kept for staff), so nothing is retried for
/// ever. A `5xx` to anything else says the server or the settings are wrong for every mail: it
/// is logged as an error and retried, so mending the settings sends everything. A mail is marked delivered only after the transport returns; a process killed in
/// between sends it again after the lease, with the same `Message-ID`. On shutdown the worker
/// finishes the mail in hand and stops.
public struct MailOutboxWorker: Service {
    /// How the worker paces itself.
    public struct Configuration: Sendable {
        /// How often an idle worker looks for due mail.
        public var pollInterval: Duration = .seconds(1)
        /// How long a claimed mail is hidden from other workers: well past the transport's
        /// deadline (``SMTPTransport``: 30 s to connect, 30 s more to finish), so a slow worker is never taken for a dead one.
        public var lease: Duration = .seconds(120)
        /// The delay after a first failure; each further one doubles it.
        public var firstDelay: Duration = .seconds(1)
        /// The longest delay between two attempts.
        public var longestDelay: Duration = .seconds(3600)
        /// The attempts before a mail that keeps failing becomes a dead letter: 20 span about
        /// eight hours with the delays above, long enough for a mail server's outage.
        public var maxAttempts = 20

        public init() {}
    }

    let outbox: any MailOutbox
    let transport: any MailTransport
    let configuration: Configuration
    let logger: Logger

    public init(outbox: any MailOutbox, transport: any MailTransport, configuration: Configuration = Configuration(), logger: Logger) {
        self.outbox = outbox
        self.transport = transport
        self.configuration = configuration
        self.logger = logger
    }

    public func run() async throws {
        while !Task.isShuttingDownGracefully, !Task.isCancelled {
            if await deliverNext() { continue }
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: configuration.pollInterval) }
        }
    }

    /// Claims and sends one due mail; `false` when there was none (or the outbox could not be read).
    func deliverNext() async -> Bool {
        let claimed: ClaimedMail
        do {
            guard let next = try await outbox.claim(lease: configuration.lease) else { return false }
            claimed = next
        } catch {
            logger.warning("mail outbox unavailable", metadata: ["error": "\(error)"])
            return false
        }
        let metadata: Logger.Metadata = ["message-id": "\(claimed.mail.messageID)", "attempt": "\(claimed.attempts)"]
        do {
            // A span per mail sent, a trace of its own: it goes out after the order's request
            // ended. Without a bootstrapped tracer it is the no-op one's.
            try await withSpan("mail.send", ofKind: .client) { span in
                span.attributes["tessera.mail.message_id"] = claimed.mail.messageID
                span.attributes["tessera.mail.attempt"] = claimed.attempts
                try await transport.send(claimed.mail)
            }
        } catch {
            Counter(label: "tessera_mail_failures_total").increment()
            let smtpError = error as? SMTPError
            let cause: DeadLetterCause? =
                if smtpError?.refusesThisMail == true { .refused } else if claimed.attempts >= configuration.maxAttempts { .attempts } else { nil }
            do {
                if let cause {
                    if try await outbox.bury(claimed, reason: "\(error)") {
                        cause.report(messageID: claimed.mail.messageID, reason: "\(error)", logger: logger)
                    }
                } else {
                    let delay = delay(afterAttempt: claimed.attempts)
                    // A 5xx that is not about this mail will not pass by itself either: someone must look.
                    logger.log(
                        level: smtpError?.isPermanent == true ? .error : .warning, "mail not sent; will retry",
                        metadata: metadata.merging(["error": "\(error)", "retry-in": "\(delay)"]) { $1 })
                    try await outbox.retry(claimed, after: delay, error: "\(error)")
                }
            } catch {
                logger.warning("mail outbox unavailable; the mail is due again after its lease", metadata: ["error": "\(error)"])
            }
            return true
        }
        Counter(label: "tessera_mail_sent_total").increment()
        logger.info("mail sent", metadata: metadata)
        do {
            try await outbox.delivered(claimed)
        } catch {
            logger.error(
                "mail sent but not marked delivered; it is sent again after its lease, with the same Message-ID",
                metadata: metadata.merging(["error": "\(error)"]) { $1 })
        }
        return true
    }

    /// 1 s, 2 s, 4 s …, never more than the longest delay.
    func delay(afterAttempt attempt: Int) -> Duration {
        let doublings = min(max(attempt - 1, 0), 30)
        let delay = configuration.firstDelay * (1 << doublings)
        return min(delay, configuration.longestDelay)
    }
}
