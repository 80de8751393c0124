/// The lines of `text/event-stream` a live stream sends.
enum ServerSentEvents {
    /// `event: region`: its first data line is `version source`, the rest is the fragment. The
    /// event's id is every region's version, in the stream URL's order, so `Last-Event-ID` on a
    /// reconnect says what the page shows.
    static func region(source: String, version: String, html: [UInt8], id: String) -> [UInt8] {
        var event: [UInt8] = []
        event.reserveCapacity(html.count + source.utf8.count + 96)
        event += Array("id: \(id)\nevent: region\ndata: \(version) \(source)\ndata: ".utf8)
        var index = 0
        while index < html.count {
            let byte = html[index]
            if byte == 0x0D || byte == 0x0A {
                // CR, LF and CRLF each end a line in an event stream; each becomes a new data line.
                if byte == 0x0D, index + 1 < html.count, html[index + 1] == 0x0A { index += 1 }
                event += Array("\ndata: ".utf8)
            } else {
                event.append(byte)
            }
            index += 1
        }
        event += [0x0A, 0x0A]
        return event
    }

    /// A comment line: nothing for the page, but the connection is seen alive by every proxy.
    static let heartbeat = Array(": heartbeat\n\n".utf8)

    /// `event: closed`, the whole of a stream with no region its visitor may see (another
    /// shopper's order, a signed-out session): there is nothing to follow, and nothing to retry.
    static let nothingToFollow = Array("retry: 2000\n\nevent: closed\ndata: Nothing on this page is live for you.\n\n".utf8)

    /// `event: closed`, last on a stream closed for a newer one of the same client: its page
    /// should not reconnect until it is shown again.
    static let evicted = Array("event: closed\ndata: Too many live pages are open from this address.\n\n".utf8)

    /// The first bytes: how long a plain `EventSource` waits before it reconnects on its own.
    static let opening = Array("retry: 2000\n\n".utf8)
}
