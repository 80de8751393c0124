import Foundation
import TesseraHTTP

/// Gzips text answers for clients that accept it: pages (streamed ones included, flushed with
/// each region), error pages, JSON, and the app's other text. Static files are compressed by
/// ``PublicFiles`` itself, from a pre-compressed `.gz` sibling or its in-memory copy.
///
/// Compression is negotiated, so a client that does not send `Accept-Encoding: gzip` (a
/// benchmark client, a scraper) pays one header lookup. Every answer that would be compressed
/// for another client says `Vary: Accept-Encoding`, so a shared cache never hands gzip to a
/// client that did not ask for it.
///
/// Put it first in the chain, so that it sees the final answer, error pages included.
public struct CompressionMiddleware: Middleware {
    /// Below this many bytes gzip's header and trailer cost more than they save.
    public var minimumLength: Int

    /// - Parameter minimumLength: bodies shorter than this are sent as they are.
    public init(minimumLength: Int = 512) {
        self.minimumLength = minimumLength
    }

    /// Compresses the answer when the client accepts gzip and the body is text worth it.
    public func after(_ response: inout Response, for context: RequestContext) {
        // A 304 stands for the 200 a cache keeps, and must say what that one varied with.
        // With compression dictionaries the answer varies with the one the browser names too.
        let dictionaries = context.application.keptPages?.dictionaries.on
        let vary = dictionaries == nil ? "Accept-Encoding" : "Accept-Encoding, Available-Dictionary"
        if response.status == .notModified {
            if let contentType = response.headers.first(where: { $0.name == .contentType })?.value, MediaTypes.isCompressible(contentType) {
                response.headers.addVary(vary)
            }
            return
        }
        // Which bodies are worth it, decided first since it costs nothing: a short one is the
        // same for every client, so it does not vary, and a prepared answer (a health check, a
        // benchmark's plaintext) stays the one built once, without a header lookup.
        let known: [UInt8]?
        switch response.body {
        case .bytes(let bytes) where bytes.count >= minimumLength: known = bytes
        case .stream: known = nil
        case .bytes, .prepared, .file: return
        }
        // An event stream must reach the client event by event, not wait in a zlib buffer. (The
        // field itself, not `headers[.contentType]`, which joins repeated fields into a new string.)
        guard let contentType = response.headers.first(where: { $0.name == .contentType })?.value, MediaTypes.isCompressible(contentType),
            !contentType.hasPrefix("text/event-stream"),
            !response.headers.contains(.contentEncoding), Self.mayHaveBody(response.status)
        else { return }
        response.headers.addVary(vary)
        // A browser that holds one of the app's compression dictionaries gets the page against it,
        // and learns of the newest.
        if let known, let dictionaries, let dictionary = dictionaries.dictionary(for: context.request),
            let compressed = dictionary.compress(known)
        {
            response.body = .bytes(compressed)
            response.headers[.contentEncoding] = "dcz"
            response.headers[.eTag] = nil
            if dictionary !== dictionaries.current { dictionaries.announce(in: &response, to: context.request) }
            return
        }
        guard AcceptEncoding(context.request.headers[.acceptEncoding]).allowsGzip else { return }
        if let known {
            guard let compressed = GzipEncoder.gzip(known, level: GzipEncoder.perRequest) else { return }
            response.body = .bytes(compressed)
        } else if case .stream(let produce) = response.body {
            response.body = .stream { writer in
                guard let gzip = GzipBodyWriter(writingTo: writer) else {
                    // zlib could not start (out of memory). The head already said gzip, so the
                    // answer is cut short as a failed producer's is, never sent as plain bytes
                    // labelled gzip.
                    throw GzipEncoder.Failure(code: -1)
                }
                try await produce(gzip)
                try await gzip.finish()
            }
        }
        response.headers[.contentEncoding] = "gzip"
        // The compressed bytes are another representation: a strong validator must differ.
        if let eTag = response.headers[.eTag], !eTag.hasPrefix("W/") {
            response.headers[.eTag] = "W/" + eTag
        }
    }

    /// Yes: error pages of refused requests are pages too.
    public var runsForRejectedRequests: Bool { true }

    private static func mayHaveBody(_ status: HTTPResponse.Status) -> Bool {
        status.kind != .informational && status != .noContent && status != .notModified
    }
}
