import CTesseraShim
import HTTPTypes
import Synchronization

/// Building libmicrohttpd responses from Swift values.
enum NativeResponse {
    /// A response that owns a copy of `bytes` and carries `headers`.
    static func make(bytes: [UInt8], headers: HTTPFields) -> OpaquePointer? {
        let response = bytes.withUnsafeBytes { buffer in
            MHD_create_response_from_buffer(buffer.count, UnsafeMutableRawPointer(mutating: buffer.baseAddress), .RESPMEM_MUST_COPY)
        }
        if let response { addHeaders(headers, to: response) }
        return response
    }

    static func addHeaders(_ headers: HTTPFields, to response: OpaquePointer) {
        for field in headers {
            _ = MHD_add_response_header(response, field.name.rawName, field.value)
        }
    }
}

/// The libmicrohttpd response a ``PreparedResponse`` builds once. libmicrohttpd counts references
/// to responses and allows queueing one on many connections at once; the cache holds one
/// reference and gives it back when the prepared response goes away.
final class NativeResponseCache: Sendable {
    private let pointer = Atomic<Int>(0)

    func response(orMake make: () -> OpaquePointer?) -> OpaquePointer? {
        let existing = pointer.load(ordering: .acquiring)
        if existing != 0 { return OpaquePointer(bitPattern: existing) }
        guard let made = make() else { return nil }
        let (won, current) = pointer.compareExchange(expected: 0, desired: Int(bitPattern: UnsafeRawPointer(made)), ordering: .acquiringAndReleasing)
        if won { return made }
        MHD_destroy_response(made)
        return OpaquePointer(bitPattern: current)
    }

    deinit {
        if let response = OpaquePointer(bitPattern: pointer.load(ordering: .acquiring)) {
            MHD_destroy_response(response)
        }
    }
}
