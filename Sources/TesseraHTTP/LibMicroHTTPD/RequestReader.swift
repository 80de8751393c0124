import CTesseraShim
import HTTPTypes

#if canImport(Glibc)
import Glibc
#endif

/// Reads a request through libmicrohttpd's access callback, which is called several times:
/// once when the head has arrived, once per piece of body, and a last time with no data.
///
/// The head is checked on the first call. A head that cannot be trusted (a malformed line or
/// target, conflicting framing, 501) is answered at once and the connection closed. A refusal
/// whose body is framed soundly (413 from `Content-Length`, 503 over the connection cap) is
/// answered after its body has been read and dropped, within ``Drain``'s bounds: a server that
/// closes with unread bytes makes the kernel send a reset, and a client still sending (a
/// browser uploading a photo) then sees that reset instead of the answer. A client that sent
/// `Expect: 100-continue` has not sent its body, so it is answered at once. The answer for an
/// accepted request is queued on the last call; queueing earlier would make the library close
/// the connection and lose keep-alive.
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
            if let open = context.open { context.daemon.headDeadlines.remove(open) }
            let verdict = readHead(context, method: method, url: url, version: version)
            context.assignRequestID()
            switch verdict {
            case .accept:
                context.phase = .readingBody
            case .refuseAfterBody(let error, let declaredLength, let drainLimit) where Drain.reads(declaredLength, upTo: drainLimit, of: context):
                context.drainLimit = drainLimit
                context.phase = .discardingBody(error)
            case .refuse(let error), .refuseAfterBody(let error, _, _):
                context.phase = .dispatched
                context.dispatch(error: error, closeConnection: true)
            }
            return .continue

        case .readingBody:
            if upload.count > 0 {
                if isPastBodyDeadline(context) { return .close }
                let limits = context.core.limits
                let received = (context.spool?.size ?? context.body.count) + upload.count
                if received > (context.isUpload ? limits.maxUploadBytes : limits.maxBodyBytes) {
                    context.discardedBytes = received
                    context.drainLimit = Drain.tooLargeBodyLimit(context)
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
                // Reading on lets the client see the answer instead of a reset, but not forever.
                context.discardedBytes += upload.count
                if context.discardedBytes > context.drainLimit || isPastBodyDeadline(context) {
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
            return HTTPError(.uploadTooLarge(megabytes: megabytes))
        }
        return HTTPError(.bodyTooLarge(bytes: context.core.limits.maxBodyBytes))
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
            return HTTPError(.uploadNotStored, headers: [.retryAfter: "5"])
        }
    }

    /// What the head says to do with the request.
    enum Verdict {
        /// Read the body and run the handler.
        case accept
        /// Answer `HTTPError` at once and close: the head cannot be trusted to frame a body.
        case refuse(HTTPError)
        /// Answer `HTTPError` once the body (of `declaredLength` bytes, or chunked when `nil`,
        /// or none at all when 0) has been read and dropped, if it is at most `drainLimit` bytes.
        case refuseAfterBody(HTTPError, declaredLength: Int?, drainLimit: Int)
    }

    /// How much of a refused request's body is read so that the client sees its answer.
    enum Drain {
        /// For a body over the limit, four times the limit and a mebibyte more: a browser's
        /// whole photo that is twice too large is read, an endless body is not.
        static func tooLargeBodyLimit(_ context: ConnectionRequest) -> Int {
            4 * (context.isUpload ? context.core.limits.maxUploadBytes : context.core.limits.maxBodyBytes) + 1_048_576
        }

        /// For a connection over a cap, the most the request could have sent had it been let in
        /// (an upload's limit, or a form's): a browser at the cap uploading a photo gets the 503
        /// page, and a body larger than any the site takes is not read.
        static func overCapLimit(_ context: ConnectionRequest) -> Int {
            context.isUpload ? context.core.limits.maxUploadBytes : context.core.limits.maxBodyBytes
        }

        /// Whether to read a body of `declaredLength` (chunked when `nil`) before answering:
        /// not when there is none, when an HTTP/1.1 client waits for `100 Continue` (an HTTP/1.0
        /// one gets none, so it sends its body anyway), or when it declares more than `limit`.
        static func reads(_ declaredLength: Int?, upTo limit: Int, of context: ConnectionRequest) -> Bool {
            if declaredLength == 0 { return false }
            if context.isHTTP11, let expect = context.headers[.expect], expect.lowercased() == "100-continue" { return false }
            return (declaredLength ?? 0) <= limit
        }
    }

    /// Fills in the method, headers and target, and judges them.
    ///
    /// The head is held to RFC 9112 where a lenient reading lets two parties disagree about where
    /// a request ends (request smuggling): one `Host`, one `Transfer-Encoding` that is exactly
    /// `chunked`, no control characters in field values.
    private static func readHead(
        _ context: ConnectionRequest, method: UnsafePointer<CChar>?, url: UnsafePointer<CChar>?, version: UnsafePointer<CChar>?
    ) -> Verdict {
        switch checkHead(context, method: method, url: url, version: version) {
        case .some(let error):
            return .refuse(error)
        case .none:
            return checkFraming(context)
        }
    }

    /// The head's own rules; the error to answer with at once, if any.
    private static func checkHead(
        _ context: ConnectionRequest, method: UnsafePointer<CChar>?, url: UnsafePointer<CChar>?, version: UnsafePointer<CChar>?
    ) -> HTTPError? {
        guard let method, let url, let version else {
            return HTTPError(.requestLineMalformed)
        }
        var head = HeadCollector(
            skipped: SkippedHeadBytes(
                method: method, target: url, targetByteCount: context.targetByteCount, targetHasSpace: context.targetHasSpace, version: version))
        withUnsafeMutablePointer(to: &head) { pointer in
            _ = MHD_get_connection_values_n(context.connection, .HEADER_KIND, HeadCollector.collect, pointer)
        }
        context.headers = head.fields

        guard let known = SupportedMethod.match(method) else {
            let name = String(cString: method)
            if let parsed = HTTPRequest.Method(name) { context.method = parsed }
            return HTTPError(.methodNotSupported(name))
        }
        context.method = known
        let headByteCount = tessera_mhd_header_size(context.connection)
        let limit = context.core.limits.maxHeaderBytes
        if headByteCount > limit {
            // libmicrohttpd's own limit is its memory pool, a little larger; this one is exact.
            return context.targetByteCount > limit
                ? HTTPError(.urlTooLong(limit: limit))
                : HTTPError(.headersTooLarge(limit: limit))
        }
        if head.hasInvalidField {
            return HTTPError(.headerNameInvalid)
        }
        if head.hasInvalidValue {
            return HTTPError(.headerValueControlCharacter)
        }
        if !head.skipped.isStrict(headByteCount: headByteCount) {
            return HTTPError(.requestLineSpacing)
        }
        let isHTTP11 = strcmp(version, "HTTP/1.1") == 0
        context.isHTTP11 = isHTTP11
        if head.hostCount > 1 || (isHTTP11 && head.hostCount == 0) {
            return HTTPError(.hostHeader)
        }
        if let problem = TransferEncoding.check(head.transferEncodings) {
            return HTTPError(ServerRefusal(problem))
        }
        do {
            context.parsedTarget = try RequestTarget.parse(context.target)
        } catch {
            return error
        }
        context.isUpload = MediaTypeHeader(context.headers[.contentType] ?? "").essence == "multipart/form-data"
        switch ContentLength.check(head.contentLengths, hasTransferEncoding: !head.transferEncodings.isEmpty) {
        case .invalid(let problem):
            return HTTPError(ServerRefusal(problem))
        case .length(let length):
            context.declaredLength = length
        case .absent:
            context.declaredLength = head.transferEncodings.isEmpty ? 0 : nil
        }
        return nil
    }

    /// With the head sound, the refusals that leave the body's framing known: over the
    /// connection cap, or a declared body over the limit.
    private static func checkFraming(_ context: ConnectionRequest) -> Verdict {
        let limits = context.core.limits
        if context.open?.isOverCap == true {
            return .refuseAfterBody(
                HTTPError(.tooManyConnections, headers: [.retryAfter: "5"]), declaredLength: context.declaredLength,
                drainLimit: Drain.overCapLimit(context))
        }
        switch context.declaredLength {
        case .some(let length) where length > (context.isUpload ? limits.maxUploadBytes : limits.maxBodyBytes):
            return .refuseAfterBody(bodyTooLarge(context), declaredLength: length, drainLimit: Drain.tooLargeBodyLimit(context))
        case .some(let length) where length <= limits.maxBodyBytes:
            context.body.reserveCapacity(length)
        default:
            break  // chunked, or an upload spooled as it arrives
        }
        return .accept
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
    var skipped: SkippedHeadBytes
    var fields = RequestHeaders()
    var contentLengths: [String] = []
    var transferEncodings: [String] = []
    var hostCount = 0
    var hasInvalidField = false
    var hasInvalidValue = false

    init(skipped: SkippedHeadBytes) {
        self.skipped = skipped
    }

    static let collect:
        @convention(c) (UnsafeMutableRawPointer?, MHD_ValueKind, UnsafePointer<CChar>?, Int, UnsafePointer<CChar>?, Int) -> MHD_Result = {
            cls, _, key, keySize, value, valueSize in
            guard let cls, let key else { return .YES }
            let collector = cls.assumingMemoryBound(to: HeadCollector.self)
            let name = UnsafeBufferPointer(start: UnsafeRawPointer(key).assumingMemoryBound(to: UInt8.self), count: keySize)
            let valueBytes =
                value.map { UnsafeBufferPointer(start: UnsafeRawPointer($0).assumingMemoryBound(to: UInt8.self), count: valueSize) }
                ?? UnsafeBufferPointer(start: nil, count: 0)
            guard !name.isEmpty, name.allSatisfy(HeadCollector.isTokenByte) else {
                collector.pointee.hasInvalidField = true
                return .YES
            }
            if valueBytes.contains(where: RequestHeadRules.isControlByte) {
                collector.pointee.hasInvalidValue = true
            }
            collector.pointee.skipped.line(
                start: UnsafeRawPointer(key), valueEnd: UnsafeRawPointer(value ?? key) + (value == nil ? keySize : valueSize))
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
