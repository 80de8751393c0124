import HTTPTypes

/// Why the server refused a request before (or while) the app read it: the request line, the
/// head, the framing, the body, the form. Each case has its status and English words; the
/// framework's error step says them in the visitor's language.
public enum ServerRefusal: TranslatedWords, Equatable {
    case requestLineMalformed
    case httpVersionNotSupported
    case chunkedBodyMalformed
    case methodNotSupported(String)
    case urlTooLong(limit: Int)
    case headersTooLarge(limit: Int)
    case headerNameInvalid
    case headerValueControlCharacter
    case requestLineSpacing
    case hostHeader
    case transferEncodingRepeated
    case transferCodingUnsupported
    case contentLengthWithTransferEncoding
    case contentLengthNotANumber
    case contentLengthConflicting
    case targetNotAPath
    case pathNotUTF8
    case pathEncodedSlash
    case pathNUL
    case pathDotSegment
    case pathNeedlessEscape
    case queryNotUTF8
    case tooManyConnections
    case bodyTooLarge(bytes: Int)
    case uploadTooLarge(megabytes: Int)
    case uploadNotStored
    case uploadNotRead
    case tooSlow
    case shuttingDown
    case formMediaType
    case formNUL
    case multipartNoBoundary
    case multipartMalformed(String)
    case multipartTooManyParts
    case multipartTooManyFiles(max: Int)
    case multipartTextTooLarge
    case fileNameUnusable

    /// The status the refusal is answered with.
    public var status: HTTPResponse.Status {
        switch self {
        case .methodNotSupported, .transferCodingUnsupported: .notImplemented
        case .urlTooLong: .uriTooLong
        case .httpVersionNotSupported: .httpVersionNotSupported
        case .headersTooLarge: .requestHeaderFieldsTooLarge
        case .bodyTooLarge, .uploadTooLarge, .multipartTooManyParts, .multipartTooManyFiles, .multipartTextTooLarge: .contentTooLarge
        case .tooManyConnections, .uploadNotStored, .uploadNotRead, .tooSlow, .shuttingDown: .serviceUnavailable
        case .formMediaType: .unsupportedMediaType
        case .pathNeedlessEscape: .notFound
        default: .badRequest
        }
    }

    /// The words in English.
    public var english: String {
        switch self {
        case .requestLineMalformed: "The request line is malformed."
        case .httpVersionNotSupported: "Only HTTP/1.0 and HTTP/1.1 are spoken here."
        case .chunkedBodyMalformed: "The chunked request body is malformed."
        case .methodNotSupported(let name): "The method \(name.isEmpty ? "(none)" : name) is not supported."
        case .urlTooLong(let limit): "The URL is longer than \(limit) bytes."
        case .headersTooLarge(let limit): "The request's headers are larger than \(limit) bytes."
        case .headerNameInvalid: "A header field name is not valid."
        case .headerValueControlCharacter: "A header field value contains a control character."
        case .requestLineSpacing: "The request line must have single spaces, and header values no NUL characters."
        case .hostHeader: "An HTTP/1.1 request must carry exactly one Host header."
        case .transferEncodingRepeated: "A request may carry only one Transfer-Encoding header."
        case .transferCodingUnsupported: "Only the chunked transfer coding is supported."
        case .contentLengthWithTransferEncoding: "A request may not carry both Content-Length and Transfer-Encoding."
        case .contentLengthNotANumber: "The Content-Length header is not a number."
        case .contentLengthConflicting: "The request carries conflicting Content-Length headers."
        case .targetNotAPath: "The request target must be a path that starts with “/”."
        case .pathNotUTF8: "The path is not valid percent-encoded UTF-8."
        case .pathEncodedSlash: "The path contains an encoded “/”."
        case .pathNUL: "The path contains a NUL byte."
        case .pathDotSegment: "The path contains a “.” or “..” segment."
        case .pathNeedlessEscape: "Nothing is here: this address escapes a letter, digit or “-._~”, which are always written plainly."
        case .queryNotUTF8: "The query string is not valid percent-encoded UTF-8."
        case .tooManyConnections: "The server has too many connections open. Please try again in a moment."
        case .bodyTooLarge(let bytes): "The request body is larger than \(bytes) bytes."
        case .uploadTooLarge(let megabytes): "The upload is larger than \(megabytes) MB, the most this site takes."
        case .uploadNotStored: "The upload cannot be stored just now. Please try again."
        case .uploadNotRead: "The upload cannot be read just now. Please try again."
        case .tooSlow: "The server took too long to answer."
        case .shuttingDown: "The server is shutting down."
        case .formMediaType: "Forms must be sent as application/x-www-form-urlencoded or multipart/form-data."
        case .formNUL: "The form contains a NUL character, which no field accepts."
        case .multipartNoBoundary: "The multipart body has no valid boundary."
        case .multipartMalformed(let detail): "The multipart body is malformed: \(detail)."
        case .multipartTooManyParts: "The form has too many parts."
        case .multipartTooManyFiles(let max): "The form has more than \(max) files."
        case .multipartTextTooLarge: "The form's text fields are too large."
        case .fileNameUnusable: "The uploaded file has no usable name."
        }
    }
}

extension HTTPError {
    /// The server's answer to `refusal`, in its status.
    public init(_ refusal: ServerRefusal, headers: HTTPFields = [:]) {
        self.init(refusal.status, words: refusal, headers: headers)
    }
}
