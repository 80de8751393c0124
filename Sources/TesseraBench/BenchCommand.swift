import ArgumentParser
import Logging
import Tessera

/// `tessera-bench`: the app `make bench` measures against the C reference, on the same bytes.
@main
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tessera-bench",
        abstract: "Benchmark endpoints: GET /plaintext and /plaintext-suspending."
    )

    @OptionGroup var options: ServerOptions

    func run() async throws {
        let settings = try options.resolve()
        settings.bootstrapLogging()
        try await ApplicationRunner.run(settings: settings, responder: BenchResponder(), logger: Logger(label: "tessera-bench"))
    }
}

/// The benchmark routes. `/plaintext` is the TechEmpower plaintext test: the smallest possible
/// answer, so the measurement is the framework's overhead and nothing else.
/// `/plaintext-suspending` gives the same bytes after one real suspension (`Task.yield`), the
/// cost a handler pays when it awaits something, such as a database.
struct BenchResponder: HTTPResponder {
    static let plaintext = Response.text("Hello, World!")

    func respond(to request: Request) async throws -> Response {
        switch request.path {
        case "/plaintext":
            return Self.plaintext
        case "/plaintext-suspending":
            await Task.yield()
            return Self.plaintext
        default:
            throw HTTPError(.notFound)
        }
    }
}
