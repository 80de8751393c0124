public import Foundation
public import Logging
import Metrics

/// A mail the outbox will not send by itself: it could not be made, or a server refused it for
/// good, or it failed too often. Staff see it (``DeadLetterOffice``), and send it again once the
/// cause is mended, or discard it.
public struct DeadLetter: Sendable, Equatable, Identifiable {
    /// The outbox's number for it.
    public let id: Int64
    public let messageID: String
    /// What it is about, in the app's words (`order:42:en`).
    public let reference: String?
    /// Where it was to go, as it was given (perhaps not an address at all).
    public let recipients: [String]
    /// Why it is dead: the server's last answer, or why the mail could not be made.
    public let reason: String
    /// The attempts made to send it; 0 for a mail that could not be made.
    public let attempts: Int
    /// When the mail was made (when the order was placed).
    public let createdAt: Date

    public init(id: Int64, messageID: String, reference: String?, recipients: [String], reason: String, attempts: Int, createdAt: Date) {
        self.id = id
        self.messageID = messageID
        self.reference = reference
        self.recipients = recipients
        self.reason = reason
        self.attempts = attempts
        self.createdAt = createdAt
    }
}

/// A mail that could not be made, recorded in its place (``MailOutboxWrites/bury(_:)``).
public struct UnsendableMail: Sendable, Equatable {
    /// The `Message-ID` the mail would have had: a repeated transaction records it once.
    public let messageID: String
    /// What it is about, in the app's words, so the app can make it again later.
    public let reference: String?
    /// The recipient as the app had it.
    public let recipient: String
    /// Why no mail could be made, for staff.
    public let reason: String

    public init(messageID: String, reference: String?, recipient: String, reason: String) {
        self.messageID = messageID
        self.reference = reference
        self.recipient = recipient
        self.reason = reason
    }
}

/// Staff's side of an outbox's dead letters: what a back office lists, sends again or discards.
public protocol DeadLetterOffice: Sendable {
    /// The dead letters, oldest first, at most `limit`.
    func deadLetters(limit: Int) async throws -> [DeadLetter]

    /// One dead letter; `nil` when there is none with `id` (sent again, or discarded).
    func deadLetter(_ id: Int64) async throws -> DeadLetter?

    /// Puts dead letter `id` back in the outbox as `mail` (made again, to a mended address),
    /// due now with no attempts; `false` when it is no longer a dead letter.
    func resend(_ id: Int64, as mail: OutgoingMail) async throws -> Bool

    /// Drops dead letter `id` for good; `false` when it is no longer a dead letter.
    func discard(_ id: Int64) async throws -> Bool
}

/// How a mail became a dead letter, as the metric's `cause` says it.
public enum DeadLetterCause: String, Sendable {
    /// The mail could not be made: its recipient's address cannot be mailed.
    case unsendable
    /// The SMTP server refused it for good (a `5xx`, such as an unknown recipient).
    case refused
    /// It failed more often than ``MailOutboxWorker/Configuration/maxAttempts``.
    case attempts

    /// Logs the dead letter as an error and counts it in `tessera_mail_dead_letters_total`: the
    /// one way a dead letter is reported, whoever made it.
    public func report(messageID: String, reason: String, logger: Logger) {
        logger.error(
            "mail is a dead letter: staff must send it again or discard it",
            metadata: ["message-id": "\(messageID)", "cause": "\(rawValue)", "reason": "\(reason)"])
        Counter(label: "tessera_mail_dead_letters_total", dimensions: [("cause", rawValue)]).increment()
    }
}
