import Foundation

/// An e-mail address, checked once, where it enters: `shop@example.com`, perhaps with a name
/// (`Tessera Shop <shop@example.com>`). A line break or an angle bracket in either would let a
/// value add headers or recipients to a message, so they are refused here, not escaped later.
public struct MailAddress: Sendable, Hashable, CustomStringConvertible {
    /// `local@domain`: what SMTP's `MAIL FROM` and `RCPT TO` carry.
    public let address: String
    /// The name a mail program shows, if any.
    public let name: String?

    /// `address` (`local@domain`) with an optional display `name`; `nil` when either is not fit
    /// for a header.
    public init?(_ address: String, name: String? = nil) {
        let parts = address.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty, !parts[1].hasPrefix("."), !parts[1].hasSuffix("."),
              address.utf8.count <= 254,
              address.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F && !"<>()[]\\,;:\"".unicodeScalars.contains($0) })
        else { return nil }
        if let name, name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) { return nil }
        self.address = address
        self.name = name.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// `Name <local@domain>` or `local@domain`, as configuration gives a sender (`MAIL_FROM`).
    public init?(parsing text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard trimmed.hasSuffix(">"), let open = trimmed.lastIndex(of: "<") else {
            self.init(trimmed)
            return
        }
        let name = trimmed[..<open].trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        self.init(String(trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)]), name: name)
    }

    /// The address as a header value: the name quoted, or encoded when it is not ASCII (RFC 2047).
    public var header: String {
        guard let name else { return address }
        return "\(MIMEEncoding.phrase(name)) <\(address)>"
    }

    public var description: String { header }
}
