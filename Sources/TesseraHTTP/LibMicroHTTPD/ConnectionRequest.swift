import CTesseraShim
import HTTPTypes
import Logging
import Synchronization

/// The server's state for one request, from its first line to its completion.
///
/// libmicrohttpd calls back for one connection on one thread at a time, so most fields are only
/// touched from those callbacks. What the handler's task shares with them is a small atomic
/// state machine, with the answer handed over through a slot:
///
/// ```
/// running ──answer ready──▶ answered                               (no task at all)
/// running ──finish()──▶ answeredInline ──settle()──▶ answered     (the fast path, one thread)
/// running ──settle()──▶ suspended ──finish() or expire()──▶ answered
/// ```
///
/// Memory ordering: `finish` writes the slot, then publishes `answeredInline` with release;
/// `settle` reads the slot only after observing it with acquire. `settle` suspends the
/// connection, stores the task, and starts the deadline *before* publishing `suspended`,
/// so whoever wins `suspended → answered` may queue and resume at once. The suspension and the
/// deadline belong to the connection's loop (``DaemonContext``): `settle` runs there, and the
/// winner's resume hops there when it runs elsewhere. The access-log fields
/// are written before the answer is queued, and read in the completion callback, which
/// libmicrohttpd's own locking orders after it.
final class ConnectionRequest: @unchecked Sendable, WaitingConnection {
    enum Phase {
        case awaitingHead
        case readingBody
        /// The request is refused; its body is read and dropped, then answered with `error`.
        case discardingBody(HTTPError)
        case dispatched
    }

    private enum Dispatch: UInt8, AtomicRepresentable {
        /// The handler runs, and the access callback has not returned yet.
        case running
        /// The handler answered before the access callback returned: `settle` queues it.
        case answeredInline
        /// The connection is suspended until the handler answers (or its deadline passes).
        case suspended
        /// The answer is queued (or being queued); anything later is dropped.
        case answered
    }

    let core: ServerCore
    /// The connection's daemon, and the state of its loop.
    let daemon: DaemonContext
    let connection: OpaquePointer
    /// The connection this request came on; `nil` only if libmicrohttpd did not report it.
    let open: OpenConnection?
    let target: String
    /// The target's length in bytes as it arrived, and whether it held a space, for ``SkippedHeadBytes``.
    let targetByteCount: Int
    let targetHasSpace: Bool
    var remoteAddress: IPAddress? { open?.address }
    /// Taken only when the access log will print a duration: most requests never need the time.
    let startedAt: ContinuousClock.Instant?
    /// When the first byte of the body arrived; the body read deadline counts from here.
    var bodyStartedAt: ContinuousClock.Instant?

    // Touched only from this connection's libmicrohttpd callbacks.
    var phase = Phase.awaitingHead
    var hasHead: Bool {
        if case .awaitingHead = phase { return false }
        return true
    }
    var method = HTTPRequest.Method.get
    var headers = RequestHeaders()
    var body: [UInt8] = []
    /// A large upload's body, on disk as it arrives (``HTTPServerLimits/maxUploadBytes``).
    var spool: SpooledFile?
    /// Whether the body may be spooled: `multipart/form-data`, read from the head.
    var isUpload = false
    var discardedBytes = 0
    /// The body's `Content-Length`: 0 when there is no body, `nil` when it is chunked.
    var declaredLength: Int? = 0
    /// How much of a refused request's body is read before it is answered (``RequestReader/Drain``).
    var drainLimit = 0
    /// Whether the request line said HTTP/1.1 (only such a client is sent `100 Continue`).
    var isHTTP11 = false
    var parsedTarget: RequestTarget?
    /// What logs show instead of ``target`` when it holds a secret (``SecretPaths``); decided when
    /// the connection's request begins, before any line can be logged.
    let secretTargetShownAs: String?
    /// The target as every log line shows it.
    var loggedTarget: String { secretTargetShownAs ?? target }
    /// Set once the head is read (``assignRequestID()``), before anything reads it from another
    /// thread; empty for a connection that never sent a head.
    private(set) var requestID = ""
    /// Whether ``requestID`` is the one the client sent.
    private(set) var requestIDIsTheClients = false

    // The handover (see the type's documentation for who may touch these when).
    private let dispatchState = Atomic<Dispatch>(.running)
    private var inlineAnswer: Response?
    private var handlerTask: Task<Void, Never>?
    /// Whether an expired request's answer went: its error page, or the plain one after a wait.
    private let expiryAnswerSent = Atomic<Bool>(false)

    // For the access log.
    private var answeredStatus: Int?
    private var answeredBytes: Int64 = 0
    /// Whether libmicrohttpd answered the request itself (``recordLibraryAnswer(status:bodyBytes:)``).
    private(set) var answeredByLibrary = false
    /// The trace the answer belongs to, for the access log line.
    private(set) var answeredTraceID: String?
    private var answeredStream: StreamedBody?
    var deadlineLinks = DeadlineLinks()

    init(daemon: DaemonContext, connection: OpaquePointer, open: OpenConnection?, target: String, targetByteCount: Int, targetHasSpace: Bool) {
        self.core = daemon.core
        self.daemon = daemon
        self.connection = connection
        self.open = open
        self.target = target
        self.secretTargetShownAs = daemon.core.secretPaths.shown(for: target)
        self.targetByteCount = targetByteCount
        self.targetHasSpace = targetHasSpace
        self.startedAt = core.accessLogEnabled ? .now : nil
    }

    /// Keeps the client's `X-Request-ID` when it is well-formed, or makes a new id. Called on
    /// the connection's thread once the head is read, before the request is dispatched.
    func assignRequestID() {
        if let incoming = headers[RequestID.header], RequestID.isWellFormed(incoming) {
            requestID = incoming
            requestIDIsTheClients = true
        } else {
            requestID = daemon.requestIDs.next()
        }
    }

    /// The request as complete as it is now; used for error answers too.
    func makeRequest() -> Request {
        let (client, isSecure) = core.trustedProxies.resolve(remote: remoteAddress, headers: headers)
        return Request(
            method: method,
            path: parsedTarget?.path ?? "",
            target: target,
            query: parsedTarget?.query ?? QueryParameters(),
            headers: headers,
            remoteAddress: remoteAddress,
            clientAddress: client,
            isSecure: isSecure,
            body: spool.map(RequestBody.spooled) ?? .memory(body),
            id: requestID,
            secretShownAs: secretTargetShownAs
        )
    }

    // MARK: Dispatch (called on the connection's event loop, inside the access callback)

    /// Runs the handler. An answer ready at once is queued right here, on the connection's own
    /// thread, without a task. Otherwise the rest runs in a task that starts on this thread too;
    /// if that finishes without suspending, it is also queued here, free of thread hops and of
    /// suspend/resume. The task prefers the connection's event loop, so whatever it waits for,
    /// it resumes on this same thread.
    func dispatch(_ request: Request) {
        let answer = core.responder.answer(request)
        if case .now(let response) = answer, !(method == .head && response.body.isStream) {
            dispatchState.store(.answered, ordering: .relaxed)
            queue(response)
            return
        }
        // The answer as it came: taking its work out of the generic enum to pass it on would
        // cost a request an allocation (a reabstraction thunk).
        dispatch(later: answer, for: request)
    }

    private func dispatch(later answer: NowOrLater<Void, Response>, for request: Request) {
        let core = self.core
        let task = Task.immediate(executorPreference: EventLoop.current) {
            let response = await core.response(to: request, after: answer)
            self.deliver(await core.withoutStream(response, for: request))
        }
        settle(task: task)
    }

    /// Answers an error found by the server itself (bad target, body too large …).
    func dispatch(error: HTTPError, closeConnection: Bool) {
        let request = makeRequest()
        let errorResponder = core.errorResponder
        let task = Task.immediate(executorPreference: EventLoop.current) {
            var response = await errorResponder.response(for: error, to: request)
            if closeConnection { response.headers[.connection] = "close" }
            self.deliver(response)
        }
        settle(task: task)
    }

    private func settle(task: Task<Void, Never>) {
        if dispatchState.load(ordering: .acquiring) == .answeredInline {
            takeInlineAnswer()
            return
        }
        guard daemon.suspensions.suspend(connection) else {
            answerWithoutWaiting(cancelling: task)
            return
        }
        handlerTask = task
        daemon.answerDeadlines.insert(self)
        let (published, _) = dispatchState.compareExchange(expected: .running, desired: .suspended, ordering: .acquiringAndReleasing)
        if !published {
            // The handler answered while we were suspending: queue it and resume ourselves.
            takeInlineAnswer()
            daemon.resume(connection, endingWaitOf: self)
        }
    }

    /// The server is stopping and can no longer suspend the connection for the handler: a 503
    /// now, on the connection's own thread, unless the handler has answered meanwhile.
    private func answerWithoutWaiting(cancelling task: Task<Void, Never>) {
        let (won, _) = dispatchState.compareExchange(expected: .running, desired: .answered, ordering: .acquiringAndReleasing)
        guard won else {
            takeInlineAnswer()
            return
        }
        task.cancel()
        var response = PlainErrorResponder().page(for: HTTPError(.shuttingDown), to: makeRequest())
        response.headers[.connection] = "close"
        queue(response)
    }

    private func takeInlineAnswer() {
        dispatchState.store(.answered, ordering: .relaxed)
        if let answer = inlineAnswer.take() { queue(answer) }
    }

    // MARK: Completion (any thread)

    /// Hands the answer to the connection: queued at once while the access callback is still
    /// running on this thread, else once the suspended connection is resumed.
    func deliver(_ response: Response) {
        if dispatchState.load(ordering: .acquiring) == .running {
            inlineAnswer = response
            let (handedOver, _) = dispatchState.compareExchange(expected: .running, desired: .answeredInline, ordering: .acquiringAndReleasing)
            if handedOver { return }
            inlineAnswer = nil
        }
        let (won, _) = dispatchState.compareExchange(expected: .suspended, desired: .answered, ordering: .acquiringAndReleasing)
        guard won else { return }
        queue(response)
        daemon.resume(connection, endingWaitOf: self)
    }

    /// On the connection's loop, whose ``DeadlineList`` has let go of it.
    func expire(reason: HTTPError) {
        let (won, _) = dispatchState.compareExchange(expected: .suspended, desired: .answered, ordering: .acquiringAndReleasing)
        guard won else { return }
        handlerTask?.cancel()
        core.logger.warning(
            "request cut short", metadata: ["target": "\(loggedTarget)", "reason": "\(reason.message)", "request_id": "\(requestID)"])
        let request = makeRequest()
        let errorResponder = core.errorResponder
        // The connection stays suspended, and the server cannot stop, until an answer is sent:
        // an error page that takes too long is replaced by the plain one.
        let fallback = Expiry.after(Self.errorPagePatience, on: daemon.loop) {
            self.sendExpiryAnswer(PlainErrorResponder().page(for: reason, to: request))
        }
        Task(executorPreference: daemon.loop) {
            let response = await errorResponder.response(for: reason, to: request)
            fallback.cancel()
            self.sendExpiryAnswer(response)
        }
    }

    /// How long an expired request's error page may take before the plain page goes instead.
    static let errorPagePatience: Duration = .seconds(3)

    /// Queues the first of an expired request's two possible answers, and resumes the connection.
    private func sendExpiryAnswer(_ response: Response) {
        guard expiryAnswerSent.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else { return }
        var response = response
        response.headers[.connection] = "close"
        queue(response)
        daemon.resume(connection, endingWaitOf: nil)
    }

    // MARK: Queueing

    /// Hands `response` to libmicrohttpd. Called exactly once, either inline in the access callback
    /// or while the connection is suspended, which are the two moments the library allows it.
    private func queue(_ response: Response) {
        answeredTraceID = response.traceID
        let isShuttingDown = core.isShuttingDown.load(ordering: .relaxed)
        // A reused prepared answer is the same bytes for every client, so it cannot carry a
        // new id; a client that sent its own gets it back on an answer built for it.
        if case .prepared(let prepared) = response.body, response.isPreparedAsIs, !isShuttingDown, !requestIDIsTheClients,
            let reusable = prepared.native.response(orMake: {
                NativeResponse.make(bytes: prepared.body, headers: prepared.headers, defaults: core.defaultHeaders)
            })
        {
            record(status: response.status, bodyBytes: Int64(prepared.body.count), stream: nil)
            enqueue(reusable, status: response.status)
            return
        }
        var headers = response.headers
        if !headers.contains(RequestID.header) {
            headers[RequestID.header] = requestID
        }
        if isShuttingDown {
            headers[.connection] = "close"
        }
        let stream: StreamedBody?
        let mhdResponse: OpaquePointer?
        let bodyBytes: Int64
        switch response.body {
        case .bytes(let bytes):
            stream = nil
            bodyBytes = Int64(bytes.count)
            mhdResponse = NativeResponse.make(bytes: bytes, headers: headers, defaults: core.defaultHeaders)
        case .prepared(let prepared):
            stream = nil
            bodyBytes = Int64(prepared.body.count)
            mhdResponse = NativeResponse.make(bytes: prepared.body, headers: headers, defaults: core.defaultHeaders)
        case .file(let region):
            stream = nil
            bodyBytes = region.length
            let descriptor = dup(region.file.descriptor)
            mhdResponse = descriptor < 0 ? nil : MHD_create_response_from_fd_at_offset64(UInt64(region.length), descriptor, UInt64(region.offset))
            if let mhdResponse { NativeResponse.addHeaders(headers, defaults: core.defaultHeaders, to: mhdResponse) }
        case .stream where method == .head:
            // The app's answers never get here (``ServerCore/withoutStream(_:for:)`` rendered
            // them already); an error page (`dispatch(error:)`, `expire`) could, and for it:
            // libmicrohttpd 0.9.75 writes a final
            // `0\r\n\r\n` chunk after the head of a chunked answer to HEAD, which corrupts the
            // next response on a kept-alive connection, so the producer is not run at all.
            stream = nil
            bodyBytes = 0
            headers[.transferEncoding] = nil
            mhdResponse = NativeResponse.make(bytes: [], headers: headers, defaults: core.defaultHeaders)
        case .stream(let producer):
            let body = StreamedBody(daemon: daemon, connection: connection)
            stream = body
            bodyBytes = 0
            mhdResponse = body.makeResponse()
            if let mhdResponse {
                NativeResponse.addHeaders(headers, defaults: core.defaultHeaders, to: mhdResponse)
                body.start(producer)
            }
        }
        guard let mhdResponse else {
            core.logger.error("libmicrohttpd could not create a response", metadata: ["target": "\(loggedTarget)"])
            return
        }
        record(status: response.status, bodyBytes: bodyBytes, stream: stream)
        enqueue(mhdResponse, status: response.status)
        MHD_destroy_response(mhdResponse)
    }

    private func record(status: HTTPResponse.Status, bodyBytes: Int64, stream: StreamedBody?) {
        answeredStatus = status.code
        answeredBytes = bodyBytes
        answeredStream = stream
    }

    private func enqueue(_ mhdResponse: OpaquePointer, status: HTTPResponse.Status) {
        if MHD_queue_response(connection, UInt32(status.code), mhdResponse) != .YES {
            core.logger.error("libmicrohttpd refused to queue a response", metadata: ["target": "\(loggedTarget)"])
        }
    }
    /// libmicrohttpd answered `status` itself, refusing what its parser could not read
    /// (``LibraryRefusal``); the connection then closes, which is not an abort.
    func recordLibraryAnswer(status: Int, bodyBytes: Int) {
        answeredStatus = status
        answeredBytes = Int64(bodyBytes)
        answeredByLibrary = true
    }

    /// Status and bytes sent, for the access log.
    func outcome() -> (status: Int?, bytes: Int64) {
        (answeredStatus, answeredStream?.bytesSent ?? answeredBytes)
    }
}
