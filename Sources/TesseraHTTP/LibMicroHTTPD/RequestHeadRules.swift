import HTTPTypes

/// The RFC 9112 rules a request's head is held to before the app sees it, where a lenient
/// reading would let two parties (this server and a proxy in front of it) disagree about where a
/// request ends: request smuggling. ``RequestReader`` applies them; each refusal is answered
/// once and the connection closed.
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
    static func check(_ values: [String]) -> HTTPError? {
        guard let value = values.first else { return nil }
        guard values.count == 1 else {
            return HTTPError(.transferEncodingRepeated)
        }
        guard value[...].trimmingSpaces().lowercased() == "chunked" else {
            return HTTPError(.transferCodingUnsupported)
        }
        return nil
    }
}

/// The rules for `Content-Length`, which request smuggling attacks play on.
enum ContentLength {
    enum Verdict: Equatable {
        case absent
        case length(Int)
        case invalid(ServerRefusal)
    }

    /// Every `Content-Length` value (a header may also carry a comma-separated list) must be the
    /// same number, and it may not come with `Transfer-Encoding`.
    static func check(_ values: [String], hasTransferEncoding: Bool) -> Verdict {
        guard !values.isEmpty else { return .absent }
        if hasTransferEncoding {
            return .invalid(.contentLengthWithTransferEncoding)
        }
        var lengths = Set<Int>()
        for value in values {
            for item in value.split(separator: ",", omittingEmptySubsequences: false) {
                let digits = item.trimmingSpaces()
                guard !digits.isEmpty, digits.allSatisfy(\.isASCIIDigit), let length = Int(digits) else {
                    return .invalid(.contentLengthNotANumber)
                }
                lengths.insert(length)
            }
        }
        guard lengths.count == 1, let length = lengths.first else {
            return .invalid(.contentLengthConflicting)
        }
        return .length(length)
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
