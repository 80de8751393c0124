import Synchronization

/// Session cookies this app opened lately, by their exact value, so that a visitor's next
/// request skips the base64 and the cipher: one hash lookup instead of an AES-GCM open.
///
/// Owned by one ``SessionCodec``, so a value verified under one secret is never taken for
/// another's. Only cookies that opened are kept, and what is kept is the payload the tag
/// authenticated; its expiry is still checked on every request. Bounded: two generations of
/// at most `capacity` cookies each, the older one dropped whole when the newer fills, and a
/// cookie found in the older one moved to the newer. That is close to least-recently-used at
/// the cost of a dictionary, and a flood of new cookies can only evict, never grow it.
final class VerifiedCookies: Sendable {
    private struct Generations {
        var current: [String: SessionRecord] = [:]
        var previous: [String: SessionRecord] = [:]
    }

    private let capacity: Int
    private let generations = Mutex(Generations())

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// The payload `cookie` verified to, if it was seen lately.
    func payload(for cookie: String) -> SessionRecord? {
        generations.withLock { kept in
            if let payload = kept.current[cookie] { return payload }
            guard let payload = kept.previous.removeValue(forKey: cookie) else { return nil }
            Self.insert(payload, for: cookie, into: &kept, capacity: capacity)
            return payload
        }
    }

    /// Keeps what `cookie` verified to.
    func keep(_ payload: SessionRecord, for cookie: String) {
        generations.withLock { Self.insert(payload, for: cookie, into: &$0, capacity: capacity) }
    }

    private static func insert(_ payload: SessionRecord, for cookie: String, into kept: inout Generations, capacity: Int) {
        if kept.current.count >= capacity {
            kept.previous = kept.current
            kept.current = Dictionary(minimumCapacity: capacity)
        }
        kept.current[cookie] = payload
    }
}
