import CTesseraShim
import HTTPTypes
import Synchronization

/// Building libmicrohttpd responses from Swift values.
enum NativeResponse {
    /// A response that owns a copy of `bytes` and carries `headers`, then the `defaults` it
    /// does not set itself.
    static func make(bytes: [UInt8], headers: HTTPFields, defaults: DefaultHeaders) -> OpaquePointer? {
        let response = bytes.withUnsafeBytes { buffer in
            MHD_create_response_from_buffer(buffer.count, UnsafeMutableRawPointer(mutating: buffer.baseAddress), .RESPMEM_MUST_COPY)
        }
        if let response { addHeaders(headers, defaults: defaults, to: response) }
        return response
    }

    static func addHeaders(_ headers: HTTPFields, defaults: DefaultHeaders, to response: OpaquePointer) {
        for field in headers {
            // `withCString`, not a `String` passed as a C string: that converts through
            // `utf8CString`, a new array per name and per value; this reads the string's own
            // NUL-terminated storage.
            field.name.rawName.withCString { name in
                field.value.withCString { value in _ = MHD_add_response_header(response, name, value) }
            }
        }
        defaults.add(to: response, unlessIn: headers)
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

/// The headers every answer carries unless it sets its own (the security headers), as the C
/// strings libmicrohttpd takes, made once: they are added to every answer, and building a merged
/// set of fields and converting each string for every response was a measurable part of a small
/// page's cost.
struct DefaultHeaders: Sendable {
    private let fields: [(name: HTTPField.Name, cName: [CChar], cValue: [CChar])]

    init(_ headers: HTTPFields) {
        fields = headers.map { ($0.name, Array($0.name.rawName.utf8CString), Array($0.value.utf8CString)) }
    }

    var isEmpty: Bool { fields.isEmpty }

    func add(to response: OpaquePointer, unlessIn headers: HTTPFields) {
        for field in fields where !headers.contains(field.name) {
            field.cName.withUnsafeBufferPointer { name in
                field.cValue.withUnsafeBufferPointer { value in
                    _ = MHD_add_response_header(response, name.baseAddress, value.baseAddress)
                }
            }
        }
    }
}
