import CTesseraShim
import HTTPTypes
import Synchronization

/// The server's state for one request, from its first line to its completion.
///
/// libmicrohttpd calls back for one connection on one thread at a time, so the fields outside
/// the mutex are only touched from those callbacks. The mutex guards what the handler's task
/// shares with them: whether the answer is ready, and whether the connection is suspended.
final class RequestContext: @unchecked Sendable, WaitingConnection {
    enum Phase {
        case awaitingHead
        case readingBody
        /// The body is over the limit; it is read and dropped, then answered with `error`.
        case discardingBody(HTTPError)
        case dispatched
    }

    enum Dispatch {
        /// The handler runs, and the access callback has not returned yet.
        case running
        /// The handler answered before the access callback returned: queue it there.
        case answeredInline(Response)
        /// The connection is suspended until the handler answers.
        case suspended(Task<Void, Never>?)
        /// The answer is queued (or being queued); anything later is dropped.
        case answered
    }

    struct Shared {
        var dispatch = Dispatch.running
        var status: Int?
        var bodyBytes: Int64 = 0
        var stream: StreamedBody?
    }

    let core: ServerCore
    let connection: OpaquePointer
    let target: String
    let remoteAddress: IPAddress?
    let startedAt = ContinuousClock.now

    // Touched only from this connection's libmicrohttpd callbacks.
    var phase = Phase.awaitingHead
    var hasHead: Bool {
        if case .awaitingHead = phase { return false }
        return true
    }
    var method = HTTPRequest.Method.get
    var headers = HTTPFields()
    var body: [UInt8] = []
    var discardedBytes = 0
    var parsedTarget: RequestTarget?

    let shared = Mutex(Shared())

    init(core: ServerCore, connection: OpaquePointer, target: String, remoteAddress: IPAddress?) {
        self.core = core
        self.connection = connection
        self.target = target
        self.remoteAddress = remoteAddress
    }

    /// The request as complete as it is now; used for error answers too.
    func makeRequest() -> Request {
        Request(
            method: method,
            path: parsedTarget?.path ?? "",
            target: target,
            query: parsedTarget?.query ?? QueryParameters(),
            headers: headers,
            remoteAddress: remoteAddress,
            body: body
        )
    }

    // MARK: Dispatch (called on the libmicrohttpd thread, inside the access callback)

    /// Runs the handler. If it finishes without suspending, the answer is queued right here, on the
    /// connection's own thread, which keeps the fast path free of thread hops and of suspend/resume.
    func dispatch(_ request: Request) {
        let core = self.core
        let task = Task.immediate {
            let response = await core.respond(to: request)
            self.finish(with: response)
        }
        settle(task: task)
    }

    /// Answers an error found by the server itself (bad target, body too large …).
    func dispatch(error: HTTPError, closeConnection: Bool) {
        let request = makeRequest()
        let errorResponder = core.errorResponder
        let task = Task.immediate {
            var response = await errorResponder.response(for: error, to: request)
            if closeConnection { response.headers[.connection] = "close" }
            self.finish(with: response)
        }
        settle(task: task)
    }

    private func settle(task: Task<Void, Never>) {
        let inline: Response? = shared.withLock { shared in
            switch shared.dispatch {
            case .answeredInline(let response):
                shared.dispatch = .answered
                return response
            case .running:
                MHD_suspend_connection(connection)
                shared.dispatch = .suspended(task)
                core.waiting.insert(self)
                return nil
            case .suspended, .answered:
                return nil
            }
        }
        if let inline { queue(inline) }
    }

    // MARK: Completion (any thread)

    func finish(with response: Response) {
        let mustResume: Bool = shared.withLock { shared in
            switch shared.dispatch {
            case .running:
                shared.dispatch = .answeredInline(response)
                return false
            case .suspended:
                shared.dispatch = .answered
                core.waiting.remove(self)
                return true
            case .answeredInline, .answered:
                return false
            }
        }
        if mustResume {
            queue(response)
            MHD_resume_connection(connection)
        }
    }

    func expire(reason: HTTPError) {
        let task: Task<Void, Never>?? = shared.withLock { shared in
            guard case .suspended(let task) = shared.dispatch else { return .none }
            shared.dispatch = .answered
            core.waiting.remove(self)
            return .some(task)
        }
        guard let task else { return }
        task?.cancel()
        core.logger.warning("request cut short", metadata: ["target": "\(target)", "reason": "\(reason.message)"])
        let request = makeRequest()
        let errorResponder = core.errorResponder
        Task {
            var response = await errorResponder.response(for: reason, to: request)
            response.headers[.connection] = "close"
            self.queue(response)
            MHD_resume_connection(self.connection)
        }
    }

    // MARK: Queueing

    /// Hands `response` to libmicrohttpd. Called exactly once, either inline in the access callback
    /// or while the connection is suspended, which are the two moments the library allows it.
    private func queue(_ response: Response) {
        var headers = response.headers
        if core.isShuttingDown.load(ordering: .relaxed) {
            headers[.connection] = "close"
        }
        let stream: StreamedBody?
        let mhdResponse: OpaquePointer?
        let bodyBytes: Int64
        switch response.body {
        case .bytes(let bytes):
            stream = nil
            bodyBytes = Int64(bytes.count)
            mhdResponse = bytes.withUnsafeBytes { buffer in
                MHD_create_response_from_buffer(buffer.count, UnsafeMutableRawPointer(mutating: buffer.baseAddress), .RESPMEM_MUST_COPY)
            }
        case .file(let region):
            stream = nil
            bodyBytes = region.length
            let descriptor = dup(region.file.descriptor)
            mhdResponse = descriptor < 0 ? nil : MHD_create_response_from_fd_at_offset64(UInt64(region.length), descriptor, UInt64(region.offset))
        case .stream where method == .head:
            // libmicrohttpd 0.9.75 writes a final `0\r\n\r\n` chunk after the head of a chunked
            // answer to HEAD, which corrupts the next response on a kept-alive connection.
            // A HEAD needs no body, so the producer is not run at all.
            stream = nil
            bodyBytes = 0
            headers[.transferEncoding] = nil
            mhdResponse = MHD_create_response_from_buffer(0, nil, .RESPMEM_PERSISTENT)
        case .stream(let producer):
            let body = StreamedBody(core: core, connection: connection)
            stream = body
            bodyBytes = 0
            mhdResponse = body.makeResponse()
            if mhdResponse != nil { body.start(producer) }
        }
        guard let mhdResponse else {
            core.logger.error("libmicrohttpd could not create a response", metadata: ["target": "\(target)"])
            return
        }
        for field in headers {
            _ = MHD_add_response_header(mhdResponse, field.name.rawName, field.value)
        }
        shared.withLock { shared in
            shared.status = response.status.code
            shared.bodyBytes = bodyBytes
            shared.stream = stream
        }
        if MHD_queue_response(connection, UInt32(response.status.code), mhdResponse) != .YES {
            core.logger.error("libmicrohttpd refused to queue a response", metadata: ["target": "\(target)"])
        }
        MHD_destroy_response(mhdResponse)
    }

    /// Status and bytes sent, for the access log.
    func outcome() -> (status: Int?, bytes: Int64) {
        shared.withLock { shared in
            (shared.status, shared.stream?.bytesSent ?? shared.bodyBytes)
        }
    }
}
