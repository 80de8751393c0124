public import Foundation
import Tessera

#if canImport(Glibc)
import Glibc
#endif

/// Sends mail to an SMTP server (``SMTPServerURL``): one connection per message, TLS from the
/// start (`smtps://`) or `STARTTLS` when offered, `EHLO`, `AUTH PLAIN` when the URL has
/// credentials (over TLS only), `MAIL FROM`, `RCPT TO`, `DATA`, `QUIT`. A secret mail (a reset
/// link) goes only encrypted, or in clear over loopback: never in clear across a network,
/// whether the server offered no `STARTTLS` or someone in the middle struck it.
///
/// A message counts as sent only on the server's `250` after the data; anything else throws and
/// the outbox tries again later with the same `Message-ID`. The whole conversation has one
/// deadline, so a server that stops answering cannot hold the outbox's worker. The conversation
/// is blocking socket calls on a thread of its own: mail is one message at a time, and needs
/// no event loop.
public struct SMTPTransport: MailTransport {
    public let server: SMTPServerURL
    public let timeout: Duration
    /// The name this client gives in `EHLO`.
    public let clientName: String
    /// The CA certificates the server's certificate must chain to, for a private CA; `nil` for
    /// the system's store.
    public let caFile: String?

    public init(
        server: SMTPServerURL, timeout: Duration = .seconds(30), clientName: String = ProcessInfo.processInfo.hostName, caFile: String? = nil
    ) {
        self.server = server
        self.timeout = timeout
        self.clientName = clientName.isEmpty ? "localhost" : clientName
        self.caFile = caFile
    }

    public func send(_ mail: OutgoingMail) async throws {
        let transport = self
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let thread = Thread {
                // A server that hangs up mid-handshake must be an error, not SIGPIPE: OpenSSL
                // writes with write(2), so the signal is blocked on this thread, which ends here.
                var pipe = sigset_t()
                sigemptyset(&pipe)
                sigaddset(&pipe, SIGPIPE)
                pthread_sigmask(SIG_BLOCK, &pipe, nil)
                continuation.resume(with: Result { try transport.converse(mail) })
            }
            thread.name = "tessera-smtp"
            thread.start()
        }
    }

    private func converse(_ mail: OutgoingMail) throws {
        let connection = try SMTPConnection(host: server.host, port: server.port, deadline: .now + timeout)
        defer { connection.close() }
        if server.security == .implicitTLS { try connection.startTLS(host: server.host, caFile: caFile) }
        try connection.expect(220, after: "the greeting")
        let capabilities = try connection.command("EHLO \(clientName)", expect: 250)
        if !connection.isEncrypted, server.security != .plain {
            // EHLO's first line is the server's name; each later one names an extension.
            if capabilities.dropFirst().contains(where: { $0.uppercased() == "STARTTLS" }) {
                try connection.command("STARTTLS", expect: 220)
                try connection.startTLS(host: server.host, caFile: caFile)
                // What the server said before the handshake may have been forged: ask again.
                try connection.command("EHLO \(clientName)", expect: 250)
            } else if server.security == .startTLSRequired {
                throw SMTPError.tlsNotOffered(because: "SMTP_URL requires it (?starttls=required)")
            } else if server.username != nil {
                throw SMTPError.tlsNotOffered(because: "the password in SMTP_URL is only ever sent encrypted")
            }
        }
        // A reset link read on the wire is an account taken: a secret goes encrypted, or over
        // loopback only, whatever the URL allows for other mail.
        if mail.isSecret, !connection.isEncrypted, !connection.reachesLoopback { throw SMTPError.secretInClear }
        if let username = server.username {
            let token = Data("\0\(username)\0\(server.password ?? "")".utf8).base64EncodedString()
            try connection.command("AUTH PLAIN \(token)", expect: 235, shown: "AUTH PLAIN")
        }
        try connection.command("MAIL FROM:<\(mail.sender)>", expect: 250)
        for recipient in mail.recipients {
            try connection.command("RCPT TO:<\(recipient)>", expect: 250, 251)
        }
        try connection.command("DATA", expect: 354)
        try connection.send(Self.dotStuffed(mail.data) + ".\r\n", expectAny: [250], shown: SMTPError.messageStep)
        // The mail is accepted: a server that closes without answering QUIT changes nothing.
        _ = try? connection.command("QUIT", expect: 221)
    }

    /// The message as `DATA` carries it: CRLF line ends, and a line that starts with a dot gets
    /// a second one, so that no line of the message ends the data early.
    static func dotStuffed(_ data: String) -> String {
        var lines = data.replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\n", omittingEmptySubsequences: false)
        if lines.last?.isEmpty == true { lines.removeLast() }
        return lines.map { $0.hasPrefix(".") ? "." + $0 : String($0) }.joined(separator: "\r\n") + "\r\n"
    }
}
