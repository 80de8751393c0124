import Foundation
import Testing
@testable import TesseraMail

/// The SMTP client against servers that misbehave on loopback: each failure is the error that
/// says what happened, within the conversation's deadline, and never a hang. (The whole
/// conversation with a real server is tested in Tests/Mail.)
@Suite struct SMTPTransportTests {
    let mail = OutgoingMail(messageID: "t.1@example.com", sender: "shop@example.com", recipients: ["ada@example.com"], data: "Subject: Hi\r\n\r\nHello.\r\n")

    func transport(port: Int, timeout: Duration = .seconds(10)) throws -> SMTPTransport {
        SMTPTransport(server: try SMTPServerURL("smtp://127.0.0.1:\(port)"), timeout: timeout, clientName: "tests")
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
        let refusing = RefusingPort()
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
    let port: Int
    private let listener: Int32

    init(says replies: [String], thenCloses: Bool = false) throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) == 0 && getsockname(listener, $0, &length) == 0 }
        }
        guard bound, listen(listener, 4) == 0 else { throw POSIXError(.EADDRNOTAVAIL) }
        self.listener = listener
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { return }
            var buffer = [UInt8](repeating: 0, count: 4096)
            for (index, reply) in replies.enumerated() {
                if index > 0, recv(connection, &buffer, buffer.count, 0) <= 0 { break }
                _ = reply.utf8CString.withUnsafeBytes { send(connection, $0.baseAddress, $0.count - 1, Int32(MSG_NOSIGNAL)) }
            }
            if thenCloses { close(connection); return }
            // Held open until the client gives up.
            while recv(connection, &buffer, buffer.count, 0) > 0 {}
            close(connection)
        }.start()
    }

    deinit {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }
}

/// A loopback port bound but never listening: connecting to it is refused.
final class RefusingPort: Sendable {
    let port: Int
    private let socket: Int32

    init() {
        let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0 }
        }
        self.socket = socket
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit {
        close(socket)
    }
}
