/// A `multipart/form-data` parser (RFC 7578) over a body that is already in memory.
///
/// The body is bounded by the server's size limit before it gets here, so the parser works on
/// the whole buffer; it still caps the number of parts so that a body of tiny parts cannot
/// turn into a million allocations.
struct MultipartParser {
    let delimiter: [UInt8]
    var maxParts = 1_000

    init(boundary: String) {
        delimiter = Array("--\(boundary)".utf8)
    }

    func parse(_ body: [UInt8]) throws(HTTPError) -> FormData {
        func malformed(_ detail: String) -> HTTPError {
            HTTPError(.badRequest, message: "The multipart body is malformed: \(detail).")
        }
        let crlf: [UInt8] = [13, 10]
        let separator = crlf + delimiter
        guard var cursor = body.firstRange(of: delimiter)?.upperBound else {
            throw malformed("no boundary found")
        }
        var fields: [QueryParameters.Item] = []
        var files: [UploadedFile] = []
        while true {
            // After a delimiter: `--` ends the body, CRLF starts a part.
            if body[cursor...].starts(with: [45, 45]) { break }
            guard body[cursor...].starts(with: crlf) else { throw malformed("a boundary is not followed by a line break") }
            cursor += 2
            guard fields.count + files.count < maxParts else {
                throw HTTPError(.contentTooLarge, message: "The form has too many parts.")
            }
            guard let headerEnd = body[cursor...].firstRange(of: crlf + crlf) else { throw malformed("a part has no header end") }
            let headers = try parseHeaders(body[cursor..<headerEnd.lowerBound], malformed)
            guard let contentEnd = body[headerEnd.upperBound...].firstRange(of: separator) else {
                throw malformed("a part is not closed")
            }
            let content = Array(body[headerEnd.upperBound..<contentEnd.lowerBound])
            cursor = contentEnd.upperBound

            let disposition = MediaTypeHeader(headers["content-disposition"] ?? "")
            guard disposition.essence == "form-data", let name = disposition.parameters["name"] else {
                throw malformed("a part has no form-data name")
            }
            if let fileName = disposition.parameters["filename"] {
                files.append(UploadedFile(fieldName: name, clientFileName: fileName, contentType: headers["content-type"], bytes: content))
            } else {
                guard let value = String(validating: content, as: UTF8.self) else { throw malformed("a field is not UTF-8") }
                fields.append(QueryParameters.Item(name: name, value: value))
            }
        }
        return FormData(fields: QueryParameters(fields), files: files)
    }

    private func parseHeaders(_ block: ArraySlice<UInt8>, _ malformed: (String) -> HTTPError) throws(HTTPError) -> [String: String] {
        var headers: [String: String] = [:]
        for line in block.split(separator: 10) {
            let trimmed = line.last == 13 ? line.dropLast() : line
            guard let colon = trimmed.firstIndex(of: UInt8(ascii: ":")),
                  let name = String(validating: trimmed[..<colon], as: UTF8.self),
                  let value = String(validating: trimmed[(colon + 1)...], as: UTF8.self)
            else { throw malformed("a part header is not “name: value”") }
            headers[name.lowercased()] = String(Substring(value).trimmingSpaces())
        }
        return headers
    }
}
