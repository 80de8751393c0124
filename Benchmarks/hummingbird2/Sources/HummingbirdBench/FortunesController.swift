import Hummingbird
import Mustache
import PostgresNIO

/// `/fortunes`: read every row, add one, sort by message, render with swift-mustache (which
/// escapes `{{message}}`), as TechEmpower's entry does.
struct FortunesController {
    typealias Context = BenchRequestContext
    let postgresClient: PostgresClient
    let template: MustacheTemplate

    init(postgresClient: PostgresClient) throws {
        self.postgresClient = postgresClient
        self.template = try MustacheTemplate(
            string: "<!DOCTYPE html><html><head><title>Fortunes</title></head><body><table>"
                + "<tr><th>id</th><th>message</th></tr>"
                + "{{#.}}<tr><td>{{id}}</td><td>{{message}}</td></tr>{{/.}}"
                + "</table></body></html>"
        )
    }

    var routes: RouteCollection<Context> {
        RouteCollection(context: Context.self)
            .get("fortunes", use: self.fortunes)
    }

    @Sendable func fortunes(request: Request, context: Context) async throws -> HTML {
        var fortunes: [Fortune] = []
        let rows = try await self.postgresClient.execute(SelectFortunes(), logger: context.logger)
        for try await (id, message) in rows {
            fortunes.append(Fortune(id: id, message: message))
        }
        fortunes.append(Fortune(id: 0, message: "Additional fortune added at request time."))
        fortunes.sort { $0.message < $1.message }
        return HTML(self.template.render(fortunes))
    }
}

struct SelectFortunes: PostgresPreparedStatement {
    typealias Row = (Int32, String)
    static let sql = "SELECT id, message FROM fortune"

    func makeBindings() -> PostgresBindings { PostgresBindings() }

    func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
}

/// A rendered page, sent as `text/html; charset=utf-8`.
struct HTML: ResponseGenerator {
    var html: String
    init(_ html: String) { self.html = html }

    func response(from request: Request, context: some RequestContext) -> Response {
        Response(
            status: .ok,
            headers: [.contentType: "text/html; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: self.html))
        )
    }
}
