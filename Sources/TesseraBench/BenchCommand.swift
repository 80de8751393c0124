import ArgumentParser
import Logging
import Tessera

/// `tessera-bench`: the app `make bench` measures against the C reference, on the same bytes.
@main
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tessera-bench",
        abstract: "Benchmark endpoints: GET /plaintext, /plaintext-built and /plaintext-suspending."
    )

    @OptionGroup var options: ServerOptions

    func run() async throws {
        let settings = try options.resolve()
        settings.bootstrapLogging()
        try await ApplicationRunner.run(settings: settings, responder: BenchResponder(), logger: Logger(label: "tessera-bench"))
    }
}

/// The benchmark routes, all answering `Hello, World!` as `text/plain; charset=utf-8`:
/// - `/plaintext`, the TechEmpower plaintext test, from a ``PreparedResponse`` (built once, as
///   the C reference does), so the measurement is the framework's request path and nothing else;
/// - `/plaintext-built`, a `Response` built for each request;
/// - `/plaintext-suspending`, the prepared answer after one real suspension (`Task.yield`), the
///   cost a handler pays when it awaits something, such as a database.
struct BenchResponder: HTTPResponder {
    static let plaintext = PreparedResponse(text: "Hello, World!")

    func respond(to request: Request) async throws -> Response {
        switch request.path {
        case "/plaintext":
            return Self.plaintext.response
        case "/plaintext-built":
            return .text("Hello, World!")
        case "/plaintext-suspending":
            await Task.yield()
            return Self.plaintext.response
        default:
            throw HTTPError(.notFound)
        }
    }
}
