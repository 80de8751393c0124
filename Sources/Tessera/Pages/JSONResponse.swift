import Foundation

extension Response {
    /// `value` as `application/json`, encoded for this answer with Foundation's encoder.
    public static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        Response(status: status, headers: [.contentType: "application/json"], body: .bytes(Array(try JSONEncoder().encode(value))))
    }
}

/// Content negotiation's other half: a page whose model is `Encodable` answers with the model
/// itself, as JSON, to a client that asks for `application/json`; browsers still get HTML.
enum JSONResponse {
    static func make(_ value: any Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        let data = try encoder.encode(value)
        return Response(
            status: status,
            headers: [.contentType: "application/json; charset=utf-8", .vary: "Accept"],
            body: .bytes(Array(data))
        )
    }
}
