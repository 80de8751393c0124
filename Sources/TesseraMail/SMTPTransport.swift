import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import Tessera

/// Sends mail to an SMTP server (``SMTPServerURL``): one connection per message, `EHLO`,
/// `AUTH PLAIN` when the URL has credentials, `MAIL FROM`, `RCPT TO`, `DATA`, `QUIT`.
///
/// A message counts as sent only on the server's `250` after the data; anything else throws and
/// the outbox tries again later with the same `Message-ID`. The whole conversation has one
/// deadline, so a server that stops answering cannot hold the outbox's worker.
public struct SMTPTransport: MailTransport {
    public let server: SMTPServerURL
    public let timeout: Duration
    /// The name this client gives in `EHLO`.
    public let clientName: String

    public init(server: SMTPServerURL, timeout: Duration = .seconds(30), clientName: String = ProcessInfo.processInfo.hostName) {
        self.server = server
        self.timeout = timeout
        self.clientName = clientName.isEmpty ? "localhost" : clientName
    }

    public func send(_ mail: OutgoingMail) async throws {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connectTimeout(TimeAmount(timeout))
            .connect(host: server.host, port: server.port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(SMTPReplyLineDecoder()))
                    return try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        // One deadline for the conversation: closing the channel ends any read that waits.
        let expired = NIOLockedValueBox(false)
        let watchdog = channel.channel.eventLoop.scheduleTask(in: TimeAmount(timeout)) {
            expired.withLockedValue { $0 = true }
            channel.channel.close(promise: nil)
        }
        defer { watchdog.cancel() }
        do {
            try await channel.executeThenClose { inbound, outbound in
                var conversation = SMTPConversation(replies: inbound.makeAsyncIterator(), outbound: outbound)
                try await conversation.expect(220, after: "the greeting")
                try await conversation.command("EHLO \(clientName)", expect: 250)
                if let username = server.username {
                    let token = Data("\0\(username)\0\(server.password ?? "")".utf8).base64EncodedString()
                    try await conversation.command("AUTH PLAIN \(token)", expect: 235, shown: "AUTH PLAIN")
                }
                try await conversation.command("MAIL FROM:<\(mail.sender)>", expect: 250)
                for recipient in mail.recipients {
                    try await conversation.command("RCPT TO:<\(recipient)>", expect: 250, 251)
                }
                try await conversation.command("DATA", expect: 354)
                try await conversation.send(Self.dotStuffed(mail.data) + ".\r\n", expect: 250, shown: SMTPError.messageStep)
                try? await conversation.command("QUIT", expect: 221)
            }
        } catch where expired.withLockedValue({ $0 }) {
            throw SMTPError.timedOut
        }
    }

    /// The message as `DATA` carries it: CRLF line ends, and a line that starts with a dot gets
    /// a second one, so that no line of the message ends the data early.
    static func dotStuffed(_ data: String) -> String {
        var lines = data.replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\n", omittingEmptySubsequences: false)
        if lines.last?.isEmpty == true { lines.removeLast() }
        return lines.map { $0.hasPrefix(".") ? "." + $0 : String($0) }.joined(separator: "\r\n") + "\r\n"
    }
}

/// One SMTP conversation: a command, then its reply, checked.
struct SMTPConversation {
    var replies: NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator
    let outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>

    mutating func command(_ line: String, expect codes: Int..., shown: String? = nil) async throws {
        try await send(line + "\r\n", expectAny: codes, shown: shown ?? String(line.prefix { $0 != ":" && $0 != " " }))
    }

    mutating func send(_ text: String, expect code: Int, shown: String) async throws {
        try await send(text, expectAny: [code], shown: shown)
    }

    private mutating func send(_ text: String, expectAny codes: [Int], shown: String) async throws {
        try await outbound.write(ByteBuffer(string: text))
        try await expectAny(codes, after: shown)
    }

    mutating func expect(_ code: Int, after what: String) async throws {
        try await expectAny([code], after: what)
    }

    /// Reads one reply, all its lines (`250-…` continues, `250 …` ends), and checks its code.
    private mutating func expectAny(_ codes: [Int], after what: String) async throws {
        var text: [String] = []
        while true {
            guard let buffer = try await replies.next() else { throw SMTPError.closed(during: what) }
            let line = String(buffer: buffer).trimmingCharacters(in: .newlines)
            text.append(String(line.dropFirst(4)))
            let isLast = line.count < 4 || line[line.index(line.startIndex, offsetBy: 3)] != "-"
            guard isLast else { continue }
            guard let code = Int(line.prefix(3)) else { throw SMTPError.refused(command: what, code: 0, reply: line) }
            guard codes.contains(code) else { throw SMTPError.refused(command: what, code: code, reply: text.joined(separator: " ")) }
            return
        }
    }
}

/// Splits the server's bytes into reply lines.
struct SMTPReplyLineDecoder: ByteToMessageDecoder {
    typealias InboundOut = ByteBuffer

    mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        guard let newline = buffer.readableBytesView.firstIndex(of: UInt8(ascii: "\n")) else {
            if buffer.readableBytes > 4096 { throw SMTPError.replyTooLong }
            return .needMoreData
        }
        let line = buffer.readSlice(length: newline - buffer.readerIndex + 1)!
        context.fireChannelRead(wrapInboundOut(line))
        return .continue
    }
}
