import Foundation
import Synchronization
import TesseraTesting
import Testing

@testable import TesseraMail

/// The SMTP client against servers that misbehave on loopback: each failure is the error that
/// says what happened, within the conversation's deadline, and never a hang. (The whole
/// conversation with a real server is tested in Tests/Mail.)
@Suite struct SMTPTransportTests {
    let mail = OutgoingMail(
        messageID: "t.1@example.com", sender: "shop@example.com", recipients: ["ada@example.com"], data: "Subject: Hi\r\n\r\nHello.\r\n")

    func transport(port: Int, timeout: Duration = .seconds(10), user: String = "", options: String = "") throws -> SMTPTransport {
        SMTPTransport(server: try SMTPServerURL("smtp://\(user)127.0.0.1:\(port)\(options)"), timeout: timeout, clientName: "tests")
    }

    /// A password never goes in clear: to a server that offers no STARTTLS, the conversation
    /// stops after EHLO, before AUTH; so does one whose URL requires TLS.
    @Test func withoutSTARTTLSAPasswordOrARequirementStopsBeforeAuth() async throws {
        for (user, options, reason) in [("shop:secret@", "", "password"), ("", "?starttls=required", "requires it")] {
            let server = try ScriptedSMTPServer(says: ["220 hello\r\n", "250-relay\r\n250-AUTH PLAIN\r\n250 8BITMIME\r\n", "235 ok\r\n"])
            await #expect {
                try await transport(port: server.port, user: user, options: options).send(mail)
            } throws: { error in
                guard case SMTPError.tlsNotOffered(let because) = error else { return false }
                return because.contains(reason) && "\(error)".contains("does not offer STARTTLS")
            }
        }
    }

    /// A reset link never goes in clear across a network. To a server whose `EHLO` offers no
    /// `STARTTLS` (or whose offer someone in the middle struck), a secret mail stops before
    /// `MAIL FROM`, whatever the URL allows; other mail goes, and so does the secret one over
    /// loopback, which crosses no network.
    @Test(.enabled(if: nonLoopbackAddress != nil, "this machine has no IPv4 address but loopback"))
    func aSecretMailGoesOnlyEncryptedAcrossANetwork() async throws {
        let address = try #require(nonLoopbackAddress)
        let secret = OutgoingMail(
            messageID: "t.2@example.com", sender: "shop@example.com", recipients: ["ada@example.com"],
            data: "Subject: Reset\r\n\r\nhttps://shop.example/password/reset/abc\r\n", reference: OutgoingMail.secretPrefix + "reset")
        let stripped = [
            "220 hello\r\n", "250-relay\r\n250 8BITMIME\r\n", "250 sender ok\r\n", "250 recipient ok\r\n", "354 go on\r\n", "250 queued\r\n",
            "221 bye\r\n",
        ]
        for options in ["", "?starttls=never"] {
            let remote = try ScriptedSMTPServer(says: stripped, address: address)
            let url = try SMTPServerURL("smtp://\(address):\(remote.port)\(options)")
            await #expect {
                try await SMTPTransport(server: url, timeout: .seconds(10), clientName: "tests").send(secret)
            } throws: { error in
                guard case SMTPError.secretInClear = error else { return false }
                return "\(error)".contains("holds a secret")
            }
            let commands = remote.commands
            #expect(commands.count == 1 && commands[0].hasPrefix("EHLO"), "nothing after EHLO: \(commands)")
        }
        let remote = try ScriptedSMTPServer(says: stripped, address: address)
        try await SMTPTransport(server: try SMTPServerURL("smtp://\(address):\(remote.port)"), clientName: "tests").send(mail)
        #expect(remote.commands.contains { $0.hasPrefix("DATA") }, "other mail goes in clear, as the URL allows")
        let local = try ScriptedSMTPServer(says: stripped)
        try await transport(port: local.port).send(secret)
        #expect(local.commands.contains { $0.hasPrefix("DATA") }, "over loopback, the secret goes")
    }

    /// `?starttls=never` sends in clear even to a server that offers STARTTLS: the relay on the
    /// same host whose certificate names no host. The whole conversation goes through.
    @Test func startTLSNeverSendsInClearToALocalRelay() async throws {
        let server = try ScriptedSMTPServer(
            says: [
                "220 hello\r\n", "250-relay\r\n250 STARTTLS\r\n", "250 sender ok\r\n", "250 recipient ok\r\n", "354 go on\r\n", "250 queued\r\n",
                "221 bye\r\n",
            ])
        try await transport(port: server.port, options: "?starttls=never").send(mail)
    }

    /// Bytes sent with the reply to STARTTLS, before the handshake, would be read as if they
    /// had come encrypted: the client refuses them.
    @Test func repliesSlippedInBeforeTheHandshakeAreRefused() async throws {
        let server = try ScriptedSMTPServer(says: ["220 hello\r\n", "250-relay\r\n250 STARTTLS\r\n", "220 go ahead\r\n250 forged\r\n"])
        await #expect {
            try await transport(port: server.port).send(mail)
        } throws: { error in
            guard case SMTPError.tls(let reason) = error else { return false }
            return reason.contains("more than its reply to STARTTLS")
        }
    }

    /// A server that offers STARTTLS and then does not speak TLS is an error that says so,
    /// within the deadline, and the mail is not sent in clear instead.
    @Test func aServerThatOffersSTARTTLSButCannotSpeakItFails() async throws {
        let server = try ScriptedSMTPServer(says: ["220 hello\r\n", "250-relay\r\n250 STARTTLS\r\n", "220 go ahead\r\n", "not TLS at all\r\n"])
        await #expect {
            try await transport(port: server.port, timeout: .seconds(5)).send(mail)
        } throws: { error in
            guard case SMTPError.tls(let reason) = error else { return false }
            return !reason.isEmpty
        }
    }

    @Test func aServerThatNeverSpeaksTimesOutAtTheDeadline() async throws {
        let server = try ScriptedSMTPServer(says: [])
        await #expect {
            try await transport(port: server.port, timeout: .milliseconds(300)).send(mail)
        } throws: { error in
            guard case SMTPError.timedOut = error else { return false }
            return true
        }
    }

    @Test func aReplyLineWithoutEndIsRefusedPastItsLimit() async throws {
        let server = try ScriptedSMTPServer(says: [String(repeating: "2", count: SMTPConnection.maximumLineLength + 10)])
        await #expect {
            try await transport(port: server.port).send(mail)
        } throws: { error in
            guard case SMTPError.replyTooLong = error else { return false }
            return true
        }
    }

    @Test func aServerThatHangsUpIsSaidToHaveClosed() async throws {
        let server = try ScriptedSMTPServer(says: ["220 hello\r\n"], thenCloses: true)
        await #expect {
            try await transport(port: server.port).send(mail)
        } throws: { error in
            guard case SMTPError.closed(during: "EHLO") = error else { return false }
            return true
        }
    }

    @Test func aRefusedConnectionSaysWhere() async throws {
        let refusing = RefusingLoopbackPort()
        await #expect {
            try await transport(port: refusing.port).send(mail)
        } throws: { error in
            guard case SMTPError.unreachable(let reason) = error else { return false }
            return reason.contains("127.0.0.1:\(refusing.port)") && reason.contains("refused")
        }
    }

    @Test func aMultiLineReplyIsReadWholeAndItsCodeChecked() async throws {
        let server = try ScriptedSMTPServer(says: ["220 hello\r\n", "250-first\r\n250-second\r\n250 last\r\n", "550 5.1.1 no such sender\r\n"])
        await #expect {
            try await transport(port: server.port).send(mail)
        } throws: { error in
            guard case SMTPError.refused(command: "MAIL", code: 550, let reply) = error else { return false }
            return reply == "5.1.1 no such sender"
        }
    }
}

/// A loopback server for one connection: it sends each of its lines after reading one command
/// (the first at once, as a greeting), then keeps the connection open, or closes it.
final class ScriptedSMTPServer: Sendable {
    private let listener: ListeningLoopbackPort
    private let received = Transcript()
    var port: Int { listener.port }
    /// What the client sent so far, one read at a time.
    var commands: [String] { received.lines.withLock { $0 } }

    private final class Transcript: Sendable {
        let lines = Mutex<[String]>([])
    }

    init(says replies: [String], thenCloses: Bool = false, address: String = "127.0.0.1") throws {
        let listener = try ListeningLoopbackPort(address: address)
        self.listener = listener
        Thread { [received] in
            let connection = listener.accept()
            guard connection >= 0 else { return }
            var buffer = [UInt8](repeating: 0, count: 4096)
            for (index, reply) in replies.enumerated() {
                if index > 0 {
                    let count = recv(connection, &buffer, buffer.count, 0)
                    guard count > 0 else { break }
                    received.lines.withLock { $0.append(String(decoding: buffer[..<count], as: UTF8.self)) }
                }
                _ = reply.utf8CString.withUnsafeBytes { send(connection, $0.baseAddress, $0.count - 1, Int32(MSG_NOSIGNAL)) }
            }
            if thenCloses {
                close(connection)
                return
            }
            // Held open until the client gives up.
            while recv(connection, &buffer, buffer.count, 0) > 0 {}
            close(connection)
        }.start()
    }
}
