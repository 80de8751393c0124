import Foundation
import Tessera

/// An e-mail address, checked once, where it enters: `shop@example.com`, perhaps with a name
/// (`Tessera Shop <shop@example.com>`). The address follows `EmailAddressSyntax`, the rule
/// forms apply too, so nothing in it can add headers or recipients; the name loses its control
/// characters (a line break would end the header) and is quoted or encoded when written.
public struct MailAddress: Sendable, Hashable, CustomStringConvertible {
    /// `local@domain`: what SMTP's `MAIL FROM` and `RCPT TO` carry.
    public let address: String
    /// The name a mail program shows, if any.
    public let name: String?

    /// `address` (`local@domain`) with an optional display `name`; `nil` when the address breaks
    /// `EmailAddressSyntax` (``problem(in:)`` says how).
    public init?(_ address: String, name: String? = nil) {
        guard EmailAddressSyntax.problem(in: address) == nil else { return nil }
        self.address = address
        self.name = name.map { ControlCharacters.removed(from: $0).trimmingCharacters(in: .whitespaces) }.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// `shop@localhost`: the sender of an app whose configuration names none (``MailOptions``).
    public static let localShop = MailAddress(checked: "shop@localhost")

    private init(checked address: String) {
        self.address = address
        name = nil
    }

    /// Why `address` cannot be mailed, in words for staff and logs; `nil` when it can.
    public static func problem(in address: String) -> String? {
        switch EmailAddressSyntax.problem(in: address) {
        case .none: nil
        case .notASCII: "the address \(address.debugDescription) has letters outside ASCII, which needs SMTPUTF8 (RFC 6531)"
        case .malformed: "\(address.debugDescription) is not an e-mail address"
        }
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
