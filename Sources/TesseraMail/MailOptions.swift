public import ArgumentParser
public import Foundation
import Tessera

/// The command-line options of an app that sends mail, each with its environment variable, as
/// `ServerOptions` has them.
///
/// Without `SMTP_URL`, mail is written to `DATA_DIR/mail` (``MailFolder``): a developer's
/// machine sends nothing, and every mail can be opened there.
public struct MailOptions: ParsableArguments, Sendable {
    /// `--smtp-url`; `nil` when not given, so `SMTP_URL` or the mail folder applies.
    @Option(
        name: .customLong("smtp-url"),
        help: """
            smtps://[user:password@]host[:port] (TLS) or smtp://…[?starttls=required] (STARTTLS) of the server that sends mail. \
            [env: SMTP_URL] (default: files in DATA_DIR/mail)
            """)
    public var smtpURL: String?

    /// `--smtp-ca-file`; `nil` when not given, so `SMTP_CA_FILE` or the system's CA store applies.
    @Option(
        name: .customLong("smtp-ca-file"),
        help: "CA certificates (PEM) that the mail server's certificate must chain to, for a private CA. [env: SMTP_CA_FILE] (default: the system's)")
    public var smtpCAFile: String?

    /// `--mail-from`; `nil` when not given, so `MAIL_FROM` or the default applies.
    @Option(
        name: .customLong("mail-from"),
        help: "The sender of the app's mail, such as \"Shop <shop@example.com>\". [env: MAIL_FROM] (default: shop@localhost)")
    public var mailFrom: String?

    /// Parsed by ArgumentParser, as an `@OptionGroup` of the app's command.
    public init() {}

    /// Where mail goes and who sends it, once read.
    public struct Settings: Sendable {
        public let transport: any MailTransport
        public let sender: MailAddress
        /// Where the transport sends, for the start-up log.
        public let destination: String
    }

    /// The options with the environment and defaults applied, checked: a malformed `SMTP_URL`
    /// or `MAIL_FROM` stops the start with a message that says which.
    public func resolve(
        dataDirectory: String, defaultSender: String = MailAddress.localShop.address,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> Settings {
        let value = OptionEnvironment(environment).string
        let fromText = value(mailFrom, "MAIL_FROM") ?? defaultSender
        guard let sender = MailAddress(parsing: fromText) else {
            throw ValidationError("MAIL_FROM=\(fromText) is not an address such as \"Shop <shop@example.com>\".")
        }
        guard let url = value(smtpURL, "SMTP_URL") else {
            let folder = URL(fileURLWithPath: dataDirectory).appendingPathComponent("mail").path
            return Settings(transport: MailFolder(path: folder), sender: sender, destination: "the folder \(folder)")
        }
        let server: SMTPServerURL
        do {
            server = try SMTPServerURL(url)
        } catch {
            throw ValidationError(error.description)
        }
        let caFile = value(smtpCAFile, "SMTP_CA_FILE")
        if let caFile, !FileManager.default.isReadableFile(atPath: caFile) {
            throw ValidationError("SMTP_CA_FILE=\(caFile) is not a file this process can read.")
        }
        return Settings(transport: SMTPTransport(server: server, caFile: caFile), sender: sender, destination: "\(server)")
    }
}
