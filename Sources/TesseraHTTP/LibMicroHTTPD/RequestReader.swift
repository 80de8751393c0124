import CTesseraShim
#if canImport(Glibc)
import Glibc
#endif
import HTTPTypes

/// Reads a request through libmicrohttpd's access callback, which is called several times:
/// once when the head has arrived, once per piece of body, and a last time with no data.
///
/// The head is checked on the first call, so that a request that will be refused (413 from its
/// `Content-Length`, 501, a malformed target) is answered before its body is read. The answer
/// for an accepted request is queued on the last call; queueing earlier would make the
/// library close the connection and lose keep-alive.
enum RequestReader {
    enum Next {
        case `continue`
        case close
    }

    static func advance(
        _ context: ConnectionRequest, method: UnsafePointer<CChar>?, url: UnsafePointer<CChar>?, version: UnsafePointer<CChar>?,
        upload: UnsafeRawBufferPointer
    ) -> Next {
        switch context.phase {
        case .awaitingHead:
            context.open?.headArrived()
            let refusal = readHead(context, method: method, url: url, version: version)
            context.assignRequestID()
            if let error = refusal {
                context.phase = .dispatched
                context.dispatch(error: error, closeConnection: true)
            } else {
                context.phase = .readingBody
            }
            return .continue

        case .readingBody:
            if upload.count > 0 {
                if isPastBodyDeadline(context) { return .close }
                let limits = context.core.limits
                let received = (context.spool?.size ?? context.body.count) + upload.count
                if received > (context.isUpload ? limits.maxUploadBytes : limits.maxBodyBytes) {
                    context.discardedBytes = received
                    context.body = []
                    context.spool = nil
                    context.phase = .discardingBody(bodyTooLarge(context))
                } else if context.spool != nil || received > limits.maxBodyBytes {
                    // An upload past the in-memory limit goes on on disk, where it has been so far too.
                    if let error = spool(upload, context) {
                        context.body = []
                        context.spool = nil
                        context.phase = .discardingBody(error)
                    }
                } else {
                    context.body.append(contentsOf: upload)
                }
                return .continue
            }
            context.phase = .dispatched
            context.dispatch(context.makeRequest())
            return .continue

        case .discardingBody(let error):
            if upload.count > 0 {
                // Reading on lets the client see the 413 instead of a reset, but not forever.
                context.discardedBytes += upload.count
                let limit = context.isUpload ? context.core.limits.maxUploadBytes : context.core.limits.maxBodyBytes
                if context.discardedBytes > 4 * limit + 1_048_576 || isPastBodyDeadline(context) {
                    return .close
                }
                return .continue
            }
            context.phase = .dispatched
            context.dispatch(error: error, closeConnection: true)
            return .continue

        case .dispatched:
            return .continue
        }
    }

    private static func isPastBodyDeadline(_ context: ConnectionRequest) -> Bool {
        let now = ContinuousClock.now
        guard let started = context.bodyStartedAt else {
            context.bodyStartedAt = now
            return false
        }
        return now - started > context.core.limits.bodyReadTimeout
    }

    private static func bodyTooLarge(_ context: ConnectionRequest) -> HTTPError {
        if context.isUpload {
            let megabytes = context.core.limits.maxUploadBytes / (1024 * 1024)
            return HTTPError(.contentTooLarge, message: "The upload is larger than \(megabytes) MB, the most this site takes.")
        }
        return HTTPError(.contentTooLarge, message: "The request body is larger than \(context.core.limits.maxBodyBytes) bytes.")
    }

    /// Adds `upload` to the request's spooled body, first moving what arrived in memory there;
    /// the error to answer with when the disk refuses.
    private static func spool(_ upload: UnsafeRawBufferPointer, _ context: ConnectionRequest) -> HTTPError? {
        do {
            if context.spool == nil {
                let file = try SpooledFile()
                try context.body.withUnsafeBytes { try file.append($0) }
                context.body = []
                context.spool = file
            }
            try context.spool?.append(upload)
            return nil
        } catch {
            return HTTPError(.serviceUnavailable, message: "The upload cannot be stored just now. Please try again.", headers: [.retryAfter: "5"])
        }
    }

    /// Fills in the method, headers and target; returns the error to answer with, if any.
    ///
    /// The head is held to RFC 9112 where a lenient reading lets two parties disagree about where
    /// a request ends (request smuggling): one `Host`, one `Transfer-Encoding` that is exactly
    /// `chunked`, no control characters in field values.
    private static func readHead(_ context: ConnectionRequest, method: UnsafePointer<CChar>?, url: UnsafePointer<CChar>?, version: UnsafePointer<CChar>?) -> HTTPError? {
        guard let method, let url, let version else {
            return HTTPError(.badRequest, message: "The request line is malformed.")
        }
        var head = HeadCollector(layout: HeadLayout(method: method, target: url, targetByteCount: context.targetByteCount, targetHasSpace: context.targetHasSpace, version: version))
        withUnsafeMutablePointer(to: &head) { pointer in
            _ = MHD_get_connection_values_n(context.connection, .HEADER_KIND, HeadCollector.collect, pointer)
        }
        context.headers = head.fields

        guard let known = SupportedMethod.match(method) else {
            let name = String(cString: method)
            if let parsed = HTTPRequest.Method(name) { context.method = parsed }
            return HTTPError(.notImplemented, message: "The method \(name.isEmpty ? "(none)" : name) is not supported.")
        }
        context.method = known
        if context.open?.isOverCap == true {
            return HTTPError(.serviceUnavailable, message: "The server has too many connections open. Please try again in a moment.",
                             headers: [.retryAfter: "5"])
        }
        let headByteCount = tessera_mhd_header_size(context.connection)
        let limit = context.core.limits.maxHeaderBytes
        if headByteCount > limit {
            // libmicrohttpd's own limit is its memory pool, a little larger; this one is exact.
            return context.targetByteCount > limit
                ? HTTPError(.uriTooLong, message: "The URL is longer than \(limit) bytes.")
                : HTTPError(.requestHeaderFieldsTooLarge, message: "The request's headers are larger than \(limit) bytes.")
        }
        if head.hasInvalidField {
            return HTTPError(.badRequest, message: "A header field name is not valid.")
        }
        if head.hasInvalidValue {
            return HTTPError(.badRequest, message: "A header field value contains a control character.")
        }
        if !head.layout.isStrict(headByteCount: headByteCount) {
            return HTTPError(.badRequest, message: "The request line must have single spaces, and header values no NUL characters.")
        }
        let isHTTP11 = strcmp(version, "HTTP/1.1") == 0
        if head.hostCount > 1 || (isHTTP11 && head.hostCount == 0) {
            return HTTPError(.badRequest, message: "An HTTP/1.1 request must carry exactly one Host header.")
        }
        if let error = TransferEncoding.check(head.transferEncodings) {
            return error
        }
        do {
            context.parsedTarget = try RequestTarget.parse(context.target)
        } catch {
            return error
        }
        context.isUpload = MediaTypeHeader(context.headers[.contentType] ?? "").essence == "multipart/form-data"
        switch ContentLength.check(head.contentLengths, hasTransferEncoding: !head.transferEncodings.isEmpty) {
        case .invalid(let message):
            return HTTPError(.badRequest, message: message)
        case .length(let length) where length > (context.isUpload ? context.core.limits.maxUploadBytes : context.core.limits.maxBodyBytes):
            return bodyTooLarge(context)
        case .length(let length) where length > context.core.limits.maxBodyBytes:
            break // an upload, spooled as it arrives
        case .length(let length):
            context.body.reserveCapacity(length)
        case .absent:
            break
        }
        return nil
    }
}

/// The methods the server answers; anything else is a 501. Matched on the C string, because
/// this runs for every request and the common methods need no allocation to recognise.
enum SupportedMethod {
    static let all: [(name: [CChar], method: HTTPRequest.Method)] = {
        let methods: [HTTPRequest.Method] = [.get, .head, .post, .put, .delete, .patch, .options]
        return methods.map { (Array($0.rawValue.utf8CString), $0) }
    }()

    static func match(_ name: UnsafePointer<CChar>) -> HTTPRequest.Method? {
        for candidate in all where candidate.name.withUnsafeBufferPointer({ strcmp($0.baseAddress!, name) == 0 }) {
            return candidate.method
        }
        return nil
    }
}

/// Gathers header fields through `MHD_get_connection_values_n`, whose iterator is a C callback,
/// straight into ``RequestHeaders``' byte buffer, noting what ``RequestHeadRules`` checks.
private struct HeadCollector {
    var layout: HeadLayout
    var fields = RequestHeaders()
    var contentLengths: [String] = []
    var transferEncodings: [String] = []
    var hostCount = 0
    var hasInvalidField = false
    var hasInvalidValue = false

    init(layout: HeadLayout) {
        self.layout = layout
    }

    static let collect: @convention(c) (UnsafeMutableRawPointer?, MHD_ValueKind, UnsafePointer<CChar>?, Int, UnsafePointer<CChar>?, Int) -> MHD_Result = { cls, _, key, keySize, value, valueSize in
        guard let cls, let key else { return .YES }
        let collector = cls.assumingMemoryBound(to: HeadCollector.self)
        let name = UnsafeBufferPointer(start: UnsafeRawPointer(key).assumingMemoryBound(to: UInt8.self), count: keySize)
        let valueBytes = value.map { UnsafeBufferPointer(start: UnsafeRawPointer($0).assumingMemoryBound(to: UInt8.self), count: valueSize) }
            ?? UnsafeBufferPointer(start: nil, count: 0)
        guard !name.isEmpty, name.allSatisfy(HeadCollector.isTokenByte) else {
            collector.pointee.hasInvalidField = true
            return .YES
        }
        if valueBytes.contains(where: RequestHeadRules.isControlByte) {
            collector.pointee.hasInvalidValue = true
        }
        collector.pointee.layout.line(start: UnsafeRawPointer(key), valueEnd: UnsafeRawPointer(value ?? key) + (value == nil ? keySize : valueSize))
        if name.count == 14, strncasecmp(key, "content-length", 14) == 0 {
            collector.pointee.contentLengths.append(String(decoding: valueBytes, as: UTF8.self))
        } else if name.count == 17, strncasecmp(key, "transfer-encoding", 17) == 0 {
            collector.pointee.transferEncodings.append(String(decoding: valueBytes, as: UTF8.self))
        } else if name.count == 4, strncasecmp(key, "host", 4) == 0 {
            collector.pointee.hostCount += 1
        }
        collector.pointee.fields.append(rawName: name, value: valueBytes)
        return .YES
    }

    /// RFC 9110 `tchar`.
    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"), UInt8(ascii: "'"),
             UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "_"),
             UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }
}
