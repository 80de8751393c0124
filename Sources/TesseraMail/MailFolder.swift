import Foundation

/// Mail written to a folder instead of sent: one `.eml` file per message, named by its
/// `Message-ID`, which any mail program opens. The default when no SMTP server is configured
/// (`DATA_DIR/mail`), so a developer sees every mail the app would have sent.
///
/// A retry writes the same file again, never a second one.
public struct MailFolder: MailTransport {
    public let path: String

    public init(path: String) {
        self.path = path
    }

    public func send(_ mail: OutgoingMail) async throws {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        let name = String(mail.messageID.map { $0.isLetter || $0.isNumber || "-._@".contains($0) ? $0 : "_" })
        let file = URL(fileURLWithPath: path).appendingPathComponent(name + ".eml")
        try Data(mail.data.utf8).write(to: file, options: .atomic)
    }
}
