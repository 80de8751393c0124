import Tessera

/// Mail waiting to be sent, kept in the app's database: the transaction that makes a mail
/// necessary (an order) writes it there too (``MailOutboxWrites``), so the mail exists if and
/// only if the order does. ``MailOutboxWorker`` sends it afterwards and retries what fails for
/// a while; what fails for good becomes a dead letter (``DeadLetterOffice``), kept for staff.
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

    /// The attempt failed for good (the server refused this mail, or too many attempts): the
    /// mail becomes a dead letter, kept with `reason` and never tried again unless staff send it
    /// again. Only the claim it was sent under counts, as for ``retry(_:after:error:)``: `false`
    /// when another claim (or staff) changed it since, and nothing was buried.
    func bury(_ claim: ClaimedMail, reason: String) async throws -> Bool

    /// How long until the next mail waiting to be sent is due: `.zero` (or less) when one is
    /// due now, `nil` when none waits. A claimed mail is due again when its lease ends.
    func nextDue() async throws -> Duration?

    /// Calls `arrived` each time mail may have become due sooner than ``nextDue()`` said: a
    /// transaction that queued mail (or sent a dead letter again) committed, in this process or,
    /// for a shared database, in another; and each time following (re)starts, once it hears,
    /// since what came before may be due. Returns when the task is cancelled. What the worker
    /// sleeps on, so that an idle outbox is never polled.
    func followArrivals(_ arrived: @escaping @Sendable () -> Void) async
}

/// A mail a worker claimed from a ``MailOutbox``.
public struct ClaimedMail: Sendable, Equatable {
    /// The outbox's number for it.
    public let id: Int64
    /// The attempts so far, this one included, since the mail was made or staff last sent it
    /// again: the worker's delays and its limit count these.
    public let attempts: Int
    /// This claim's number, which only grows, also across a resend: ``MailOutbox/retry(_:after:error:)``
    /// and ``MailOutbox/bury(_:reason:)`` change the mail only while it is still under this claim.
    public let claim: Int
    public let mail: OutgoingMail

    public init(id: Int64, attempts: Int, claim: Int, mail: OutgoingMail) {
        self.id = id
        self.attempts = attempts
        self.claim = claim
        self.mail = mail
    }
}

/// The outbox's side inside another transaction: what the order's transaction calls.
public protocol MailOutboxWrites {
    /// Adds `mail`, due now. A mail whose `Message-ID` is already in the outbox is not added
    /// again, so a repeated transaction never makes a second mail.
    func enqueue(_ mail: OutgoingMail) throws

    /// Records a mail that could not even be made (its recipient's address cannot be mailed) as
    /// a dead letter, so that staff see it rather than nobody; one per `Message-ID`, as above.
    func bury(_ letter: UnsendableMail) throws
}
