/// Why an SMTP attempt failed. The outbox tries every failure again later; a permanent one (a
/// `5xx` reply) is logged as an error, because it will not go away by itself.
public enum SMTPError: Error, CustomStringConvertible, Sendable {
    /// The server answered `command` with `code`.
    case refused(command: String, code: Int, reply: String)
    /// The connection ended before the conversation did.
    case closed(during: String)
    /// A reply line was longer than SMTP allows.
    case replyTooLong
    /// The conversation took longer than the transport's timeout.
    case timedOut

    /// A `5xx` reply: the server will say the same next time, until someone changes something.
    public var isPermanent: Bool {
        if case .refused(_, let code, _) = self { return code >= 500 }
        return false
    }

    public var description: String {
        switch self {
        case .refused(let command, let code, let reply): "the SMTP server answered \(command) with \(code) \(reply)"
        case .closed(let command): "the SMTP server closed the connection during \(command)"
        case .replyTooLong: "the SMTP server sent a reply line over 4,096 bytes"
        case .timedOut: "the SMTP server did not finish in time"
        }
    }
}
