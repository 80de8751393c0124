/// What Tessera takes for an e-mail address, wherever one enters: a form (``FormReader/email(_:label:)``)
/// and the mail layer (`MailAddress`) apply this one rule, so an address a form accepts can
/// always be mailed.
///
/// The rule is RFC 5321's mailbox in ASCII: a dot-atom local part of at most 64 bytes, then a
/// domain of letter, digit and hyphen labels, 254 bytes in all. Quoted local parts, address
/// literals and internationalised addresses (RFC 6531, which needs SMTPUTF8 at every hop) are
/// refused with a reason a form can show, rather than accepted and then never delivered.
public enum EmailAddressSyntax {
    /// Why a text is not an address Tessera can send mail to.
    public enum Problem: Sendable, Equatable {
        /// Not shaped like `name@example.com`.
        case malformed
        /// Shaped like an address, but with letters outside ASCII (`jürgen@example.de`).
        case notASCII
    }

    /// What is wrong with `address`, or `nil` when mail can be sent to it.
    public static func problem(in address: String) -> Problem? {
        let bytes = Array(address.utf8)
        guard let at = bytes.lastIndex(of: UInt8(ascii: "@")), bytes.count <= 254 else { return .malformed }
        let local = bytes[..<at]
        let domain = bytes[(at + 1)...]
        guard isDotAtom(local, allowing: { isAtext($0) || $0 >= 0x80 }), local.count <= 64,
            isDotAtom(domain, allowing: { isLabelByte($0) || $0 >= 0x80 }),
            domain.split(separator: UInt8(ascii: ".")).allSatisfy({ $0.count <= 63 && $0.first != UInt8(ascii: "-") && $0.last != UInt8(ascii: "-") })
        else { return .malformed }
        return bytes.allSatisfy({ $0 < 0x80 }) ? nil : .notASCII
    }

    /// Dot-separated runs of `allowed` bytes: no dot first, last or twice in a row.
    private static func isDotAtom(_ bytes: ArraySlice<UInt8>, allowing allowed: (UInt8) -> Bool) -> Bool {
        guard let first = bytes.first, let last = bytes.last, first != UInt8(ascii: "."), last != UInt8(ascii: ".") else { return false }
        var previousWasDot = false
        for byte in bytes {
            let isDot = byte == UInt8(ascii: ".")
            guard isDot ? !previousWasDot : allowed(byte) else { return false }
            previousWasDot = isDot
        }
        return true
    }

    /// RFC 5322 `atext`: letters, digits and ``!#$%&'*+-/=?^_`{|}~``.
    private static func isAtext(_ byte: UInt8) -> Bool {
        isLabelByte(byte) || "!#$%&'*+/=?^_`{|}~".utf8.contains(byte)
    }

    /// A domain label's letters, digits and hyphen.
    private static func isLabelByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"):
            true
        default: false
        }
    }
}
