/// libFuzzer's entry for the `multipart/form-data` parser, on bodies in memory under the
/// boundary `XyZ`. Any bytes are a form or a ``MultipartParser/Failure``, never a crash; a form
/// keeps the parser's caps; and a form written out again as multipart parses back to the same
/// fields and files.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMultipart(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let body = Array(UnsafeBufferPointer(start: data, count: size))
    let parser = MultipartParser(boundary: "XyZ")
    guard let form = try? parser.parse(.memory(body)) else { return 0 }
    precondition(form.files.count <= parser.maxFiles && form.fields.items.count + form.files.count <= parser.maxParts)
    precondition(form.fields.items.reduce(0) { $0 + $1.value.utf8.count } <= parser.maxFieldBytes)

    // Written again, with the names as parsed, it must read back the same.
    var again: [UInt8] = []
    func part(_ disposition: String, _ contentType: String?, _ content: [UInt8]) {
        again += Array("--XyZ\r\nContent-Disposition: \(disposition)\r\n".utf8)
        if let contentType { again += Array("Content-Type: \(contentType)\r\n".utf8) }
        again += Array("\r\n".utf8) + content + Array("\r\n".utf8)
    }
    for field in form.fields.items {
        part("form-data; name=\"\(field.name)\"", nil, Array(field.value.utf8))
    }
    for file in form.files {
        guard case .memory(let bytes) = file.contents else { preconditionFailure("a body in memory keeps its files in memory") }
        part("form-data; name=\"\(file.fieldName)\"; filename=\"\(file.clientFileName)\"", file.contentType, bytes)
    }
    again += Array("--XyZ--\r\n".utf8)
    // Names with a quote, a line break or a `;` cannot be written back as they were read.
    let names = form.fields.items.map(\.name) + form.files.flatMap { [$0.fieldName, $0.clientFileName, $0.contentType ?? ""] }
    guard names.allSatisfy({ !$0.contains(where: { "\"\r\n;\\".contains($0) }) && $0 == String($0[...].trimmingSpaces()) }) else { return 0 }
    guard let reread = try? parser.parse(.memory(again)) else { preconditionFailure("a form written again does not parse") }
    precondition(reread.fields == form.fields, "fields read back differently")
    precondition(reread.files.map(\.fieldName) == form.files.map(\.fieldName) && reread.files.map(\.clientFileName) == form.files.map(\.clientFileName))
    return 0
}
