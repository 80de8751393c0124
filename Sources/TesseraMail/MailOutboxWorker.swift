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
///
/// It never polls: between mails it sleeps until the next one it knows of is due
/// (``MailOutbox/nextDue()``), or until the outbox says mail arrived
/// (``MailOutbox/followArrivals(_:)``: a transaction that queued mail committed, here or on another
/// instance). An idle worker costs nothing, and a queued mail leaves at once.
public struct MailOutboxWorker: Service {
    /// How the worker paces itself.
    public struct Configuration: Sendable {
        /// How long the worker waits before it looks again when the outbox could not be read
        /// (the database is down).
        public var unreadableRetry: Duration = .seconds(1)
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
        let arrivals = WakeSignal()
        let outbox = self.outbox
        await withDiscardingTaskGroup { group in
            group.addTask { await outbox.followArrivals { arrivals.signal() } }
            while !Task.isShuttingDownGracefully, !Task.isCancelled {
                if await deliverNext() { continue }
                let wait = await nextWait()
                _ = await cancelWhenGracefulShutdown { await arrivals.wait(atMost: wait) }
            }
            group.cancelAll()
        }
    }

    /// How long to sleep when nothing could be claimed: until the next mail is due (`nil`: none
    /// waits, so until mail arrives). Never less than a few milliseconds, so a mail that is due
    /// but held by another worker's claim in progress is not asked for in a busy loop.
    func nextWait() async -> Duration? {
        do {
            guard let due = try await outbox.nextDue() else { return nil }
            return max(due, .milliseconds(10))
        } catch {
            // ``deliverNext()`` has just warned of the same outage.
            logger.debug("mail outbox unavailable", metadata: ["error": "\(error)", "retry-in": "\(configuration.unreadableRetry)"])
            return configuration.unreadableRetry
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
