import ArgumentParser
import Foundation
import Logging
import Synchronization
import Tessera
import Testing

@testable import TesseraMail

/// The mail a framework app sends: addresses that cannot inject headers, a message whose bytes
/// depend on it alone, the SMTP URL, and the worker's retries. The SMTP conversation itself is
/// tested against a real server, in Tests/Mail.
@Suite struct MailTests {
    let shop = MailAddress("orders@shop.example", name: "Tessera Shop")!
    let buyer = MailAddress("jurgen@example.com", name: "Jürgen Ünal")!

    func message(
        text: String = "Thank you.\n.\nA line that is longer than seventy-six characters, to be folded by quoted-printable encoding."
    ) -> MailMessage {
        MailMessage(
            from: shop, to: buyer, subject: "Bestellung #7 – bestätigt", messageID: "order-7.1@shop.example",
            date: Date(timeIntervalSince1970: 1_800_000_000), html: "<p>Grüße</p>", text: text, language: "de")
    }

    @Test func addressesThatCouldAddHeadersOrRecipientsAreRefused() {
        #expect(MailAddress("a@b.c") != nil)
        #expect(MailAddress("shop@localhost") != nil)
        for bad in [
            "a@b.c\r\nBcc: x@y.z", "a b@c.d", "<a@b.c>", "a@b.c,d@e.f", "no-at-sign", "@b.c", "a@", "a@.b", "a@b@c",
            "a..b@c.d", ".a@b.c", "a@-b.c", "a@b_c.d", "\"a b\"@c.d", "a@[127.0.0.1]", "jürgen@example.de", "a@bücher.de",
        ] {
            #expect(MailAddress(bad) == nil, "\(bad)")
        }
        // A name is display text: its control characters go, the rest is quoted or encoded.
        #expect(MailAddress("a@b.c", name: "Evil\r\nBcc: x@y.z")?.header == "\"EvilBcc: x@y.z\" <a@b.c>")
        #expect(MailAddress("a@b.c", name: "\u{7}\t")?.name == nil)
        #expect(MailAddress(parsing: "\"Tessera Shop\" <orders@shop.example>") == MailAddress("orders@shop.example", name: "Tessera Shop"))
        #expect(MailAddress(parsing: "orders@shop.example")?.name == nil)
        #expect(MailAddress(parsing: "Shop <not an address>") == nil)
    }

    @Test func theMessageHasItsHeadersAndBothPartsAndTheSameBytesEveryTime() {
        let mail = message().outgoing()
        #expect(mail == message().outgoing(), "a retry sends exactly the same message")
        #expect(mail.sender == "orders@shop.example")
        #expect(mail.recipients == ["jurgen@example.com"])
        let headers = mail.data.components(separatedBy: "\r\n\r\n")[0].components(separatedBy: "\r\n")
        #expect(headers.contains("From: \"Tessera Shop\" <orders@shop.example>"))
        #expect(headers.contains("To: =?utf-8?B?SsO8cmdlbiDDnG5hbA==?= <jurgen@example.com>"))
        #expect(headers.contains("Subject: =?utf-8?B?QmVzdGVsbHVuZyAjNyDigJMgYmVzdMOkdGlndA==?="))
        #expect(headers.contains("Date: Fri, 15 Jan 2027 08:00:00 +0000"))
        #expect(headers.contains("Message-ID: <order-7.1@shop.example>"))
        #expect(headers.contains("Content-Language: de"))
        #expect(mail.data.contains("Content-Type: text/plain; charset=utf-8"))
        #expect(mail.data.contains("<p>Gr=C3=BC=C3=9Fe</p>"))
        #expect(!mail.data.contains("\n\n"), "every line ends in CRLF")
        #expect(mail.data.contains("boundary=\"=_tessera-"), "a boundary quoted-printable text cannot contain")
        for line in mail.data.components(separatedBy: "\r\n") { #expect(line.utf8.count <= 78, "\(line)") }
    }

    @Test func quotedPrintableFoldsAtSeventySixAndEscapesWhatItMust() {
        let exactly76 = String(repeating: "a", count: 76)
        #expect(MIMEEncoding.quotedPrintable(exactly76) == exactly76, "76 characters fit on one line")
        let longer = MIMEEncoding.quotedPrintable(String(repeating: "a", count: 80))
        #expect(longer.components(separatedBy: "\r\n").allSatisfy { $0.count <= 76 })
        #expect(longer.replacingOccurrences(of: "=\r\n", with: "") == String(repeating: "a", count: 80), "soft breaks only")
        #expect(MIMEEncoding.quotedPrintable("a=b") == "a=3Db")
        #expect(MIMEEncoding.quotedPrintable("trailing \nspace\t") == "trailing=20\r\nspace=09")
        // An escape is never split by a soft break.
        let folded = MIMEEncoding.quotedPrintable(String(repeating: "a", count: 73) + "ü")
        for line in folded.components(separatedBy: "\r\n") {
            let text = line.hasSuffix("=") ? String(line.dropLast()) : line
            #expect(line.count <= 76 && text.range(of: "=[0-9A-F]?$", options: .regularExpression) == nil, "\(line)")
        }
        #expect(folded.replacingOccurrences(of: "=\r\n", with: "") == String(repeating: "a", count: 73) + "=C3=BC")
    }

    @Test func aLineOfTheMessageThatStartsWithADotCannotEndTheData() {
        let stuffed = SMTPTransport.dotStuffed(message().outgoing().data)
        #expect(stuffed.contains("\r\n..\r\n"))
        #expect(!stuffed.contains("\r\n.\r\n"))
        #expect(stuffed.hasSuffix("\r\n"))
    }

    @Test func smtpURLs() throws {
        let full = try SMTPServerURL("smtp://user%40shop:p%3Ass@mail.example.com:2525")
        #expect(full.host == "mail.example.com")
        #expect(full.port == 2525)
        #expect(full.username == "user@shop")
        #expect(full.password == "p:ss")
        #expect(full.description == "smtp://user@shop@mail.example.com:2525", "no password in logs")
        #expect(full.security == .startTLSWhenOffered)
        let relay = try SMTPServerURL("smtp://127.0.0.1")
        #expect(relay.port == 25 && relay.security == .startTLSWhenOffered)
        let local = try SMTPServerURL("smtp://localhost?starttls=never")
        #expect(local.security == .plain && local.description == "smtp://localhost:25?starttls=never")
        let implicit = try SMTPServerURL("smtps://mail.example.com")
        #expect(implicit.port == 465 && implicit.security == .implicitTLS && implicit.description == "smtps://mail.example.com:465")
        let required = try SMTPServerURL("smtp://mail.example.com:587?starttls=required")
        #expect(required.security == .startTLSRequired && required.description == "smtp://mail.example.com:587?starttls=required")
        for bad in [
            "https://mail.example.com", "smtp://", "smtp://host:0", "smtp://host/path", "mail.example.com", "smtps://host?starttls=required",
            "smtp://host?starttls=yes", "smtp://host?tls=1", "smtp://shop:secret@host?starttls=never",
        ] {
            #expect(throws: SMTPServerURL.Invalid.self, "\(bad)") { try SMTPServerURL(bad) }
        }
    }

    /// Issue 61, finding 2: a URL refused at start is shown with its password hidden, whatever
    /// made it wrong, parsed or not.
    @Test func aRefusedSMTPURLNeverShowsItsPassword() {
        for bad in [
            "smtps://u:s3cret-pw@host/path", "smtp://u:s3cret-pw@host:0", "ftp://u:s3cret-pw@host", "smtp://u:s3cret-pw@host?tls=1",
            "smtp://u:s3cret-pw@host?starttls=never", "smtp://u:s3cret-pw@", "smtp://u:s3cret-pw@host:99999",
            "smtp://u:s3cret-pw@host?starttls=maybe", "smtp://u:s3cret-pw@host#part", "smtp://u:s3c@ret-pw@host/x",
        ] {
            do {
                _ = try SMTPServerURL(bad)
                Issue.record("\(SMTPServerURL.redacted(bad)) was accepted")
            } catch {
                #expect(!error.description.contains("s3c"), "\(error.description)")
                #expect(error.description.contains("***"), "\(error.description)")
            }
        }
        // What the start prints: the options' error carries the same hidden text.
        do {
            _ = try MailOptions.parse([]).resolve(dataDirectory: "/srv/shop", environment: ["SMTP_URL": "smtps://u:s3cret-pw@host/x"])
            Issue.record("a URL with a path was accepted")
        } catch {
            #expect(!"\(error)".contains("s3cret"), "\(error)")
        }
    }

    /// Issue 61, finding 3: the user and the password are percent-decoded once, as written.
    @Test func smtpCredentialsAreDecodedOnce() throws {
        let url = try SMTPServerURL("smtp://shop%2541:p%2541ss%25zz@mail.example.com")
        #expect(url.username == "shop%41")
        #expect(url.password == "p%41ss%zz")
        // A % that starts no escape is kept as written, never turned into an empty password.
        #expect(try SMTPServerURL("smtp://shop:p%zz@mail.example.com").password == "p%zz")
    }

    @Test func withoutSMTPURLMailGoesToTheDataFolder() throws {
        let settings = try MailOptions.parse([]).resolve(dataDirectory: "/srv/shop", environment: [:])
        #expect((settings.transport as? MailFolder)?.path == "/srv/shop/mail")
        #expect(settings.sender.address == "shop@localhost")
        let smtp = try MailOptions.parse([]).resolve(
            dataDirectory: "/srv/shop", environment: ["SMTP_URL": "smtp://relay:25", "MAIL_FROM": "Shop <s@shop.example>"])
        #expect((smtp.transport as? SMTPTransport)?.server.host == "relay")
        #expect(smtp.sender == MailAddress("s@shop.example", name: "Shop"))
        #expect(throws: (any Error).self) { try MailOptions.parse([]).resolve(dataDirectory: "/d", environment: ["SMTP_URL": "http://relay"]) }
        #expect(throws: (any Error).self) { try MailOptions.parse([]).resolve(dataDirectory: "/d", environment: ["MAIL_FROM": "nobody"]) }
    }

    @Test func theMailFolderWritesOneFilePerMessageID() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mail-\(UUID().uuidString)").path
        let mail = message().outgoing()
        try await MailFolder(path: folder).send(mail)
        try await MailFolder(path: folder).send(mail)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["order-7.1@shop.example.eml"])
        #expect(try String(contentsOfFile: folder + "/order-7.1@shop.example.eml", encoding: .utf8) == mail.data)
    }

    @Test func failuresAreRetriedWithDoublingDelaysAndSuccessIsMarkedDelivered() async throws {
        let outbox = RecordingOutbox(mail: message().outgoing())
        let transport = FlakyTransport(failures: 2)
        var configuration = MailOutboxWorker.Configuration()
        configuration.longestDelay = .seconds(5)
        let worker = MailOutboxWorker(outbox: outbox, transport: transport, configuration: configuration, logger: Logger(label: "test"))
        #expect(await worker.deliverNext())
        #expect(await worker.deliverNext())
        #expect(await worker.deliverNext())
        #expect(await worker.deliverNext() == false, "nothing left")
        #expect(outbox.events.withLock { $0 } == ["retry 1 after 1.0 seconds", "retry 1 after 2.0 seconds", "delivered 1"])
        #expect(transport.sent.withLock { $0 } == 1)
        #expect(worker.delay(afterAttempt: 3) == .seconds(4))
        #expect(worker.delay(afterAttempt: 40) == .seconds(5), "never longer than the longest delay")
    }

    /// The problem the form and the mail layer both name, for each kind of address.
    @Test func formsAndMailAgreeOnEveryKindOfAddress() {
        let cases: [(String, EmailAddressSyntax.Problem?)] = [
            ("plain@example.com", nil), ("o'brien+shop@mail.example.co.uk", nil), ("a.b-c_d@x-y.example", nil),
            ("jürgen@example.de", .notASCII), ("a@bücher.de", .notASCII), ("用户@例子.广告", .notASCII),
            ("\"quoted\"@example.com", .malformed), ("a@[192.0.2.1]", .malformed), ("a b@example.com", .malformed),
            ("a@example.com\n", .malformed), (String(repeating: "a", count: 65) + "@example.com", .malformed),
        ]
        for (address, problem) in cases {
            #expect(EmailAddressSyntax.problem(in: address) == problem, "\(address)")
            var form = FormReader(FormData(fields: QueryParameters([.init(name: "email", value: address)])))
            let value = form.email("email")
            // What the form takes, mail takes; what mail refuses, the form refuses with a message.
            #expect((form.errors["email"] == nil) == (MailAddress(value) != nil), "\(address)")
        }
        var form = FormReader(FormData(fields: QueryParameters([.init(name: "email", value: "jürgen@example.de")])))
        _ = form.email("email")
        #expect(form.errors["email"]?.contains("Latin letters") == true)
    }

    @Test func aRefusalForGoodOrTooManyFailuresMakesADeadLetter() async throws {
        let refused = RecordingOutbox(mail: message().outgoing())
        let recipientUnknown = FlakyTransport(failures: 1, code: 550, command: "RCPT")
        let worker = MailOutboxWorker(outbox: refused, transport: recipientUnknown, logger: Logger(label: "test"))
        #expect(await worker.deliverNext())
        #expect(await worker.deliverNext() == false, "a dead letter is not claimed again")
        #expect(refused.events.withLock { $0 }.count == 1)
        #expect(refused.events.withLock { $0 }.first?.hasPrefix("bury 1: the SMTP server answered RCPT with 550") == true)

        // A 5xx to MAIL FROM (or AUTH, EHLO) is the settings' fault, the same for every mail: retried.
        let misconfigured = RecordingOutbox(mail: message().outgoing())
        let relayDenied = MailOutboxWorker(outbox: misconfigured, transport: FlakyTransport(failures: 1, code: 550), logger: Logger(label: "test"))
        #expect(await relayDenied.deliverNext())
        #expect(misconfigured.events.withLock { $0 }.first?.hasPrefix("retry 1") == true)

        let busy = RecordingOutbox(mail: message().outgoing())
        var configuration = MailOutboxWorker.Configuration()
        configuration.firstDelay = .milliseconds(1)
        configuration.maxAttempts = 3
        let patient = MailOutboxWorker(
            outbox: busy, transport: FlakyTransport(failures: 10), configuration: configuration, logger: Logger(label: "test"))
        for _ in 0..<3 { #expect(await patient.deliverNext()) }
        #expect(await patient.deliverNext() == false)
        #expect(busy.events.withLock { $0 }.map { $0.prefix(7) } == ["retry 1", "retry 1", "bury 1:"])
    }

    /// One mail, claimed until it is delivered; what the worker did, in order.
    final class RecordingOutbox: MailOutbox {
        let mail: OutgoingMail
        let events = Mutex<[String]>([])
        let attempts = Mutex(0)
        let done = Mutex(false)
        init(mail: OutgoingMail) { self.mail = mail }

        func claim(lease: Duration) async throws -> ClaimedMail? {
            if done.withLock({ $0 }) { return nil }
            let attempt = attempts.withLock {
                $0 += 1
                return $0
            }
            return ClaimedMail(id: 1, attempts: attempt, claim: attempt, mail: mail)
        }
        func delivered(_ claim: ClaimedMail) async throws {
            done.withLock { $0 = true }
            events.withLock { $0.append("delivered \(claim.id)") }
        }
        func retry(_ claim: ClaimedMail, after delay: Duration, error: String) async throws {
            events.withLock { $0.append("retry \(claim.id) after \(delay)") }
        }
        func bury(_ claim: ClaimedMail, reason: String) async throws -> Bool {
            done.withLock { $0 = true }
            events.withLock { $0.append("bury \(claim.id): \(reason)") }
            return true
        }
        func nextDue() async throws -> Duration? {
            done.withLock { $0 } ? nil : .zero
        }
        func followArrivals(_ arrived: @escaping @Sendable () -> Void) async {
            await Task.untilCancelled()
        }
    }

    /// Fails its first `failures` sends as a busy server does.
    final class FlakyTransport: MailTransport {
        let failures: Int
        let code: Int
        let command: String
        let calls = Mutex(0)
        let sent = Mutex(0)
        init(failures: Int, code: Int = 451, command: String = "MAIL") {
            self.failures = failures
            self.code = code
            self.command = command
        }

        func send(_ mail: OutgoingMail) async throws {
            let call = calls.withLock {
                $0 += 1
                return $0
            }
            guard call > failures else { throw SMTPError.refused(command: command, code: code, reply: "no") }
            sent.withLock { $0 += 1 }
        }
    }
}
