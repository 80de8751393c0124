extension FormData {
    /// Decodes `body` according to `contentType`; an unsupported type is a 415, and a text field
    /// with a NUL character a 400.
    ///
    /// No browser sends a NUL in a text field, and no store can keep one as text (PostgreSQL
    /// refuses it outright, which would be a 500), so it is refused here, once, for every form.
    /// A body in memory or written to disk as it arrived (a large `multipart/form-data` upload).
    public init(body: RequestBody, contentType: String?) throws(HTTPError) {
        let mediaType = MediaTypeHeader(contentType ?? "")
        switch (mediaType.essence, body) {
        case ("application/x-www-form-urlencoded", .memory(let bytes)):
            self.init(fields: try QueryParameters(parsing: bytes))
        case ("multipart/form-data", _):
            guard let boundary = mediaType.parameters["boundary"], !boundary.isEmpty, boundary.utf8.count <= 70 else {
                throw HTTPError(.multipartNoBoundary)
            }
            do {
                self = try MultipartParser(boundary: boundary).parse(body)
            } catch {
                throw HTTPError(ServerRefusal(error))
            }
        default:
            throw HTTPError(.formMediaType)
        }
        if fields.items.contains(where: { $0.name.utf8.contains(0) || $0.value.utf8.contains(0) }) {
            throw HTTPError(.formNUL)
        }
    }
}
