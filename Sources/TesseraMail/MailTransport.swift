/// Where mail goes: an SMTP server (``SMTPTransport``), or a folder of `.eml` files for a
/// developer's machine (``MailFolder``). The outbox worker calls it; a message that fails is
/// tried again later, so a transport only has to say whether this attempt worked.
public protocol MailTransport: Sendable {
    /// Hands `mail` over. Returning means the other side has taken responsibility for it (an
    /// SMTP server's `250` after the data, a file renamed into place); throwing means it did not.
    func send(_ mail: OutgoingMail) async throws
}
