import Crypto
public import Foundation
import Tessera

/// An e-mail with an HTML part and a text part, both rendered from typed views, as a shop sends
/// an order confirmation. ``outgoing(reference:)`` turns it into the bytes an SMTP server receives.
///
/// The `messageID` names the message for good: derive it from what the mail is about (an order),
/// not from the attempt, so a retry sends the same message again and mail programs that see
/// both keep one.
public struct MailMessage: Sendable, Equatable {
    public var from: MailAddress
    public var to: MailAddress
    public var subject: String
    /// `order-42.1764000000@shop.example`, without angle brackets.
    public var messageID: String
    public var date: Date
    public var html: String
    public var text: String
    /// The language of both parts (`Content-Language`), such as `en`.
    public var language: String?

    public init(
        from: MailAddress, to: MailAddress, subject: String, messageID: String, date: Date,
        html: String, text: String, language: String? = nil
    ) {
        self.from = from
        self.to = to
        self.subject = subject
        self.messageID = messageID
        self.date = date
        self.html = html
        self.text = text
        self.language = language
    }

    /// The message as it is sent and stored: RFC 5322 headers, then `multipart/alternative`
    /// with the text part first (the fallback) and the HTML part last (the preferred one). The
    /// bytes depend on the message alone, so a retry sends exactly what the first attempt did.
    /// `reference` says what the mail is about in the app's words (`order:42:en`), so that
    /// staff see it beside a dead letter and the app can make the mail again.
    public func outgoing(reference: String? = nil) -> OutgoingMail {
        // "=_" cannot appear in quoted-printable text, so no line of a part can look like it.
        let boundary = "=_tessera-" + SHA256.hash(data: Data(messageID.utf8)).prefix(12).map { String(format: "%02x", $0) }.joined()
        var lines = [
            "From: \(from.header)",
            "To: \(to.header)",
            "Subject: \(MIMEEncoding.headerText(subject.replacingOccurrences(of: "\r", with: " ").replacingOccurrences(of: "\n", with: " ")))",
            "Date: \(Self.dateHeader(date))",
            "Message-ID: <\(messageID)>",
            "MIME-Version: 1.0",
        ]
        if let language { lines.append("Content-Language: \(language)") }
        lines += [
            "Content-Type: multipart/alternative;\r\n boundary=\"\(boundary)\"",
            "",
        ]
        for (type, body) in [("text/plain", text), ("text/html", html)] {
            lines += [
                "--\(boundary)",
                "Content-Type: \(type); charset=utf-8",
                "Content-Transfer-Encoding: quoted-printable",
                "",
                MIMEEncoding.quotedPrintable(body),
            ]
        }
        lines.append("--\(boundary)--")
        return OutgoingMail(
            messageID: messageID, sender: from.address, recipients: [to.address], data: lines.joined(separator: "\r\n") + "\r\n", reference: reference
        )
    }

    /// `Tue, 25 Nov 2026 18:17:08 +0000`.
    static func dateHeader(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss Z"
        return formatter.string(from: date)
    }
}

/// A message ready to go: its envelope and its bytes, as an outbox stores it and a
/// ``MailTransport`` sends it.
public struct OutgoingMail: Sendable, Equatable {
    /// The `Message-ID`, without angle brackets: the same for every attempt.
    public let messageID: String
    /// `MAIL FROM`.
    public let sender: String
    /// `RCPT TO`, one or more.
    public let recipients: [String]
    /// The message, headers and body, with CRLF line ends.
    public let data: String
    /// What the mail is about, in the app's words (`order:42:en`); `nil` when the app keeps none.
    /// A reference that starts with ``secretPrefix`` marks a mail whose body is a secret (a
    /// password reset link): the outbox forgets the body once it is delivered.
    public let reference: String?

    /// `secret:`: the start of the reference of a mail whose body the outbox must not keep.
    public static let secretPrefix = "secret:"

    /// Whether the outbox forgets the body once the mail is delivered.
    public var isSecret: Bool { reference?.hasPrefix(Self.secretPrefix) ?? false }

    public init(messageID: String, sender: String, recipients: [String], data: String, reference: String? = nil) {
        self.messageID = messageID
        self.sender = sender
        self.recipients = recipients
        self.data = data
        self.reference = reference
    }
}
