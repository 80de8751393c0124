/// The RFC 9112 rules a request's head is held to before the app sees it, where a lenient
/// reading would let two parties (this server and a proxy in front of it) disagree about where a
/// request ends: request smuggling. ``RequestReader`` applies them and turns each problem into
/// its refusal (`ServerRefusal(_:)`), answered once before the connection is closed. The rules
/// need nothing but the standard library, so that they are fuzzed on their own (`make fuzz`).
enum RequestHeadRules {
    /// RFC 9110 allows visible characters, spaces and tabs in a field value; a bare CR or LF,
    /// or any other control character, is a 400. (libmicrohttpd 0.9.75 ends a value at a NUL
    /// before the app sees it, so a NUL cannot be caught here.)
    static func isControlByte(_ byte: UInt8) -> Bool {
        (byte < 0x20 && byte != UInt8(ascii: "\t")) || byte == 0x7F
    }
}

/// The rule for `Transfer-Encoding`, the other header request smuggling plays on: at most one
/// line, and then exactly `chunked`, the one coding libmicrohttpd decodes. Two lines are a 400
/// (a proxy may read either one); any other coding is a 501.
enum TransferEncoding {
    /// What is wrong with a request's `Transfer-Encoding` lines.
    enum Problem: Equatable {
        /// More than one line (400).
        case repeated
        /// A coding other than `chunked` (501).
        case unsupported
    }

    static func check(_ values: [String]) -> Problem? {
        guard let value = values.first else { return nil }
        guard values.count == 1 else { return .repeated }
        guard value[...].trimmingSpaces().lowercased() == "chunked" else { return .unsupported }
        return nil
    }
}

/// The rules for `Content-Length`, which request smuggling attacks play on.
enum ContentLength {
    enum Verdict: Equatable {
        case absent
        case length(Int)
        case invalid(Problem)
    }

    /// What is wrong with a request's `Content-Length` values.
    enum Problem: Equatable {
        /// It came with `Transfer-Encoding`.
        case withTransferEncoding
        /// A value or list item that is not a decimal number that fits an `Int`.
        case notANumber
        /// Two different numbers.
        case conflicting
    }

    /// Every `Content-Length` value (a header may also carry a comma-separated list) must be the
    /// same number, and it may not come with `Transfer-Encoding`.
    static func check(_ values: [String], hasTransferEncoding: Bool) -> Verdict {
        guard !values.isEmpty else { return .absent }
        if hasTransferEncoding {
            return .invalid(.withTransferEncoding)
        }
        var lengths = Set<Int>()
        for value in values {
            for item in value.split(separator: ",", omittingEmptySubsequences: false) {
                let digits = item.trimmingSpaces()
                guard !digits.isEmpty, digits.allSatisfy(\.isASCIIDigit), let length = Int(digits) else {
                    return .invalid(.notANumber)
                }
                lengths.insert(length)
            }
        }
        guard lengths.count == 1, let length = lengths.first else {
            return .invalid(.conflicting)
        }
        return .length(length)
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
