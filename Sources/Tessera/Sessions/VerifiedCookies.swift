import TesseraHTTP

/// Session cookies this app opened lately, by their exact value, so that a visitor's next
/// request skips the base64 and the cipher: one hash lookup instead of an AES-GCM open.
///
/// Owned by one ``SessionCodec``, so a value verified under one secret is never taken for
/// another's. Only cookies that opened are kept, and what is kept is the payload the tag
/// authenticated; its expiry is still checked on every request. Bounded: two generations of
/// at most `capacity` cookies each, the older one dropped whole when the newer fills, and a
/// cookie found in the older one moved to the newer. That is close to least-recently-used at
/// the cost of a dictionary, and a flood of new cookies can only evict, never grow it.
///
/// Each event loop keeps its own (``LoopLocal``): a visitor's connection stays on one loop, so
/// a cookie is opened once per loop at most, and a request looks it up without a lock shared
/// with the other loops.
final class VerifiedCookies: Sendable {
    private final class Generations {
        var current: [CookieBytes: SessionRecord] = [:]
        var previous: [CookieBytes: SessionRecord] = [:]
    }

    /// A cookie's value compared and hashed by its bytes. `String`'s `==` is canonical
    /// equivalence, under which `\u{212A}` (KELVIN SIGN) equals `K`: another value would find a
    /// cookie verified under different bytes.
    struct CookieBytes: Hashable {
        let value: String

        static func == (lhs: CookieBytes, rhs: CookieBytes) -> Bool {
            lhs.value.utf8.elementsEqual(rhs.value.utf8)
        }

        func hash(into hasher: inout Hasher) {
            let hashed: Void? = value.utf8.withContiguousStorageIfAvailable { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
            if hashed == nil {
                for byte in value.utf8 { hasher.combine(byte) }
            }
        }
    }

    private let capacity: Int
    private let perLoop = LoopLocal { Generations() }

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// The payload `cookie` verified to, if it was seen lately.
    func payload(for cookie: String) -> SessionRecord? {
        perLoop.withValue { kept in
            let key = CookieBytes(value: cookie)
            if let payload = kept.current[key] { return payload }
            guard let payload = kept.previous.removeValue(forKey: key) else { return nil }
            insert(payload, for: cookie, into: kept)
            return payload
        }
    }

    /// Keeps what `cookie` verified to.
    func keep(_ payload: SessionRecord, for cookie: String) {
        perLoop.withValue { insert(payload, for: cookie, into: $0) }
    }

    private func insert(_ payload: SessionRecord, for cookie: String, into kept: Generations) {
        if kept.current.count >= capacity {
            kept.previous = kept.current
            kept.current = Dictionary(minimumCapacity: capacity)
        }
        kept.current[CookieBytes(value: cookie)] = payload
    }
}
