public import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A server-sent-events client over a raw socket, for tests that follow a live stream: it reads
/// the answer's head, then one event at a time, exactly as the server framed them.
public final class EventStreamClient: @unchecked Sendable {
    // @unchecked: one test drives one client, from one thread at a time.
    /// One event, or one comment line (a heartbeat) when ``comment`` is set.
    public struct Event: Sendable, Equatable {
        public var id: String?
        public var name: String?
        public var data: String
        public var comment: String?
    }

    /// The answer's status and headers.
    public let head: TestResponse
    private let client: RawHTTPClient
    private var pending: [UInt8] = []
    private var ended = false

    private init(client: RawHTTPClient, head: TestResponse) {
        self.client = client
        self.head = head
    }

    /// Opens `target` with `GET`, from `source` (a `127.x.y.z` address) when given. A read waits
    /// at most `timeout` seconds, then throws ``RawHTTPClient/Failure/timeout``.
    public static func open(
        port: Int, _ target: String, headers: [String: String] = [:], from source: String? = nil,
        timeout: TimeInterval = 10
    ) throws -> EventStreamClient {
        let client = try RawHTTPClient(port: port, from: source, timeout: timeout)
        var request = "GET \(target) HTTP/1.1\r\nHost: localhost\r\nAccept: text/event-stream\r\n"
        for (name, value) in headers { request += "\(name): \(value)\r\n" }
        try client.send(Array((request + "\r\n").utf8))
        let head = try client.readHead()
        let stream = EventStreamClient(client: client, head: head)
        if head.status != 200 {
            stream.ended = true
        } else if head.header("transfer-encoding")?.lowercased() != "chunked" {
            // A stream that is over before it starts comes whole, with its length.
            stream.pending = try client.readBody(after: head)
            stream.ended = true
        }
        return stream
    }

    /// The next event, skipping comments unless `comments`; `nil` once the server ended the stream.
    public func next(comments: Bool = false) throws -> Event? {
        while true {
            if let end = pending.firstRange(of: [10, 10]) {
                let block = String(decoding: pending[..<end.lowerBound], as: UTF8.self)
                pending.removeFirst(end.upperBound)
                guard let event = Self.parse(block) else { continue }
                if event.comment != nil && !comments { continue }
                return event
            }
            guard !ended, let chunk = try client.readChunk() else {
                ended = true
                return nil
            }
            pending += chunk
        }
    }

    /// Reads until the server ends the stream, and returns what came.
    public func rest() throws -> [Event] {
        var events: [Event] = []
        while let event = try next() { events.append(event) }
        return events
    }

    /// Closes the connection, as a browser leaving the page does.
    public func close() {
        shutdown(client.descriptor, Int32(SHUT_RDWR))
    }

    private static func parse(_ block: String) -> Event? {
        var event = Event(data: "")
        var data: [String] = []
        var sawField = false
        for line in block.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix(":") {
                event.comment = String(line.dropFirst()).trimmingCharacters(in: .whitespaces)
                continue
            }
            let (field, value) = line.firstIndex(of: ":").map { (line[..<$0], line[line.index(after: $0)...]) } ?? (line[...], ""[...])
            let text = value.hasPrefix(" ") ? String(value.dropFirst()) : String(value)
            switch field {
            case "id": event.id = text
            case "event": event.name = text
            case "data": data.append(text)
            default: continue  // retry:, or a field this client does not know
            }
            sawField = true
        }
        event.data = data.joined(separator: "\n")
        return sawField || event.comment != nil ? event : nil
    }
}
