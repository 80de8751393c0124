/// Mail waiting to be sent, kept in the app's database: the transaction that makes a mail
/// necessary (an order) writes it there too (``MailOutboxWrites``), so the mail exists if and
/// only if the order does. ``MailOutboxWorker`` sends it afterwards and retries what fails.
///
/// Several workers may share one outbox (instances on one PostgreSQL database): ``claim(lease:)``
/// gives each mail to one worker at a time.
public protocol MailOutbox: Sendable {
    /// The oldest mail that is due, now hidden from every other worker for `lease` (after which
    /// a worker that died while sending it is presumed dead, and the mail is due again); `nil`
    /// when nothing is due.
    func claim(lease: Duration) async throws -> ClaimedMail?

    /// The mail was handed over: it is never sent again. Only the claim it was sent under
    /// counts (its attempt), so a worker that outlived its lease changes nothing another one did.
    func delivered(_ claim: ClaimedMail) async throws

    /// The attempt failed with `error`; the mail is due again after `delay`, unless another
    /// worker has claimed it since.
    func retry(_ claim: ClaimedMail, after delay: Duration, error: String) async throws
}

/// A mail a worker claimed from a ``MailOutbox``.
public struct ClaimedMail: Sendable, Equatable {
    /// The outbox's number for it.
    public let id: Int64
    /// The attempts so far, this one included.
    public let attempts: Int
    public let mail: OutgoingMail

    public init(id: Int64, attempts: Int, mail: OutgoingMail) {
        self.id = id
        self.attempts = attempts
        self.mail = mail
    }
}

/// The outbox's side inside another transaction: what the order's transaction calls.
public protocol MailOutboxWrites {
    /// Adds `mail`, due now. A mail whose `Message-ID` is already in the outbox is not added
    /// again, so a repeated transaction never makes a second mail.
    func enqueue(_ mail: OutgoingMail) throws
}
