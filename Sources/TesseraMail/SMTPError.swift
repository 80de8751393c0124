/// Why an SMTP attempt failed. The outbox tries a passing failure again later; a refusal of this
/// mail itself (``refusesThisMail``) makes it a dead letter, because it will not go away by itself.
public enum SMTPError: Error, CustomStringConvertible, Sendable {
    /// The server answered `command` with `code`.
    case refused(command: String, code: Int, reply: String)
    /// The connection ended before the conversation did.
    case closed(during: String)
    /// A reply line was longer than SMTP allows.
    case replyTooLong
    /// The conversation took longer than the transport's timeout.
    case timedOut
    /// No connection could be made: the host has no address, or every address refused.
    case unreachable(reason: String)
    /// TLS could not be set up: the server's certificate was refused, or the handshake failed.
    case tls(reason: String)
    /// The server offers no `STARTTLS`, and this mail may not go in clear: the URL requires TLS,
    /// or it holds a password, which is only ever sent encrypted.
    case tlsNotOffered(because: String)
    /// The mail holds a secret (``OutgoingMail/isSecret``, a password reset link) and the
    /// connection is not encrypted, to an address other than loopback: the server offered no
    /// `STARTTLS` (or someone in the middle struck it from its reply), or the URL says
    /// `?starttls=never`. The mail waits, and after its attempts becomes a dead letter.
    case secretInClear

    /// A `5xx` reply: the server will say the same next time, until someone changes something.
    public var isPermanent: Bool {
        if case .refused(_, let code, _) = self { return code >= 500 }
        return false
    }

    /// A `5xx` to this mail's own recipient (`RCPT`) or message: the server takes other mail,
    /// not this one. A `5xx` to the greeting, `EHLO`, `AUTH` or `MAIL FROM` is the server's or
    /// the settings' fault (a changed password, a sender it no longer relays for), the same for
    /// every mail: that is retried, so mending the settings sends everything.
    public var refusesThisMail: Bool {
        if case .refused(let command, let code, _) = self { return code >= 500 && (command == "RCPT" || command == Self.messageStep) }
        return false
    }

    /// What a refusal of the message itself (the reply to its data) names as its command.
    static let messageStep = "the message"

    public var description: String {
        switch self {
        case .refused(let command, let code, let reply): "the SMTP server answered \(command) with \(code) \(reply)"
        case .closed(let command): "the SMTP server closed the connection during \(command)"
        case .replyTooLong: "the SMTP server sent a reply line over 4,096 bytes"
        case .timedOut: "the SMTP server did not finish in time"
        case .unreachable(let reason): "no connection to the SMTP server: \(reason)"
        case .tls(let reason): "no TLS with the SMTP server: \(reason)"
        case .tlsNotOffered(let because): "the SMTP server does not offer STARTTLS, and \(because)"
        case .secretInClear:
            "this mail holds a secret (a password reset link), which goes only encrypted or over loopback, "
                + "and the connection to the SMTP server is not encrypted (no STARTTLS offered, or ?starttls=never)"
        }
    }
}
