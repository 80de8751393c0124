import TesseraJSON

extension Response {
    /// `value` as `application/json`, written straight into the answer's bytes (`JSONWriter`, from `TesseraJSON`).
    public static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        Response(status: status, headers: [.contentType: "application/json"], body: .bytes(try JSONWriter().bytes(value)))
    }
}

/// Content negotiation's other half: a page whose model is `Encodable` answers with the model
/// itself, as JSON, to a client that asks for `application/json`; browsers still get HTML.
enum JSONResponse {
    /// Sorted keys, so the same model gives the same bytes; dates as ISO 8601, as people read them.
    private static let writer = JSONWriter(sortsKeys: true, dateEncoding: .iso8601)

    static func make(_ value: any Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        Response(
            status: status,
            headers: [.contentType: "application/json; charset=utf-8", .vary: "Accept"],
            body: .bytes(try writer.bytes(value))
        )
    }
}
