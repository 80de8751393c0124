import CTesseraShim

/// What libmicrohttpd refuses inside its own parser (patch 0007): a request line without a
/// method, an HTTP version other than 1.0 and 1.1, a malformed or too large `Content-Length`, a
/// malformed chunk. The app's error step answers it like any other refusal, in the visitor's
/// language when the head was read that far, if it can without waiting: nothing can wait in
/// the parser. Otherwise libmicrohttpd's own short text goes.
enum LibraryRefusal {
    /// The refusal libmicrohttpd answers with `status` and `message` (its fixed texts).
    static func refusal(status: Int, message: String, limits: HTTPServerLimits) -> ServerRefusal? {
        switch status {
        case 505: return .httpVersionNotSupported
        case 413: return .bodyTooLarge(bytes: limits.maxBodyBytes)
        case 431: return .headersTooLarge(limit: limits.maxHeaderBytes)
        case 400 where message.lowercased().contains("chunk"): return .chunkedBodyMalformed
        case 400 where message.contains("Content-Length"): return .contentLengthNotANumber
        case 400 where message.contains("Host"): return .hostHeader
        case 400: return .requestLineMalformed
        default: return nil
        }
    }

    /// The app's page for what libmicrohttpd refuses on `connection`, and its body's length; or
    /// `nil` for libmicrohttpd's own text.
    static func page(on connection: OpaquePointer, status: Int, message: String, core: ServerCore) -> (response: OpaquePointer, bodyBytes: Int)? {
        guard let refusal = refusal(status: status, message: message, limits: core.limits) else { return nil }
        var headers = RequestHeaders()
        _ = withUnsafeMutablePointer(to: &headers) { MHD_get_connection_values_n(connection, .HEADER_KIND, collect, $0) }
        // The method and target may be what was malformed: the page needs only the head.
        guard let request = try? Request(method: .get, target: "/", headers: headers),
            case .now(let response) = core.errorResponder.answer(for: HTTPError(refusal), to: request),
            response.status.code == status, case .bytes(let body) = response.body
        else { return nil }
        return NativeResponse.make(bytes: body, headers: response.headers, defaults: core.defaultHeaders).map { ($0, body.count) }
    }

    private static let collect:
        @convention(c) (UnsafeMutableRawPointer?, MHD_ValueKind, UnsafePointer<CChar>?, Int, UnsafePointer<CChar>?, Int) -> MHD_Result = {
            cls, _, key, keySize, value, valueSize in
            guard let cls, let key, keySize > 0 else { return .YES }
            let name = UnsafeBufferPointer(start: UnsafeRawPointer(key).assumingMemoryBound(to: UInt8.self), count: keySize)
            let bytes =
                value.map { UnsafeBufferPointer(start: UnsafeRawPointer($0).assumingMemoryBound(to: UInt8.self), count: valueSize) }
                ?? UnsafeBufferPointer(start: nil, count: 0)
            cls.assumingMemoryBound(to: RequestHeaders.self).pointee.append(rawName: name, value: bytes)
            return .YES
        }
}
