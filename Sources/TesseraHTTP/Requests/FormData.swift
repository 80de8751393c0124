/// A decoded form body: its text fields, in order with repeats kept, and its uploaded files.
public struct FormData: Sendable {
    /// The text fields, in the order sent.
    public var fields: QueryParameters
    /// The uploaded files: in memory from a small body, in spooled files from a large one.
    public var files: [UploadedFile]

    /// A form with these fields and files; for tests and tools.
    public init(fields: QueryParameters = QueryParameters(), files: [UploadedFile] = []) {
        self.fields = fields
        self.files = files
    }

    /// The first value of the text field `name`.
    public subscript(name: String) -> String? {
        fields[name]
    }

    /// The first uploaded file of the field `name`.
    public func file(_ name: String) -> UploadedFile? {
        files.first { $0.fieldName == name }
    }
}

/// A `Content-Type` value split into its essence (`type/subtype`, lowercased) and parameters.
struct MediaTypeHeader {
    var essence: String
    var parameters: [String: String]

    init(_ value: String) {
        let pieces = Self.pieces(of: value)
        essence = pieces.first.map { String($0.trimmingSpaces()).lowercased() } ?? ""
        var parameters: [String: String] = [:]
        for piece in pieces.dropFirst() {
            guard let equals = piece.firstIndex(of: "=") else { continue }
            let name = piece[..<equals].trimmingSpaces().lowercased()
            let parameterValue = piece[piece.index(after: equals)...].trimmingSpaces()
            parameters[name] = Self.unquoted(parameterValue)
        }
        self.parameters = parameters
    }

    /// The value split at each `;` outside a quoted string (RFC 9110, 5.6.4): a file named
    /// `a;b.jpg` keeps its name.
    static func pieces(of value: String) -> [Substring] {
        // Most requests have no `Content-Type` at all: no array for them.
        guard !value.isEmpty else { return [] }
        var pieces: [Substring] = []
        var start = value.startIndex
        var index = value.startIndex
        var quoted = false
        while index < value.endIndex {
            switch value[index] {
            case "\\" where quoted:
                // The escaped character is taken as it is, even a quote.
                index = value.index(after: index)
                if index == value.endIndex { continue }
            case "\"":
                quoted.toggle()
            case ";" where !quoted:
                pieces.append(value[start..<index])
                start = value.index(after: index)
            default:
                break
            }
            index = value.index(after: index)
        }
        pieces.append(value[start...])
        return pieces
    }

    /// A quoted string's contents with its escapes undone; a token as it is.
    static func unquoted(_ value: Substring) -> String {
        guard value.count >= 2, value.first == "\"", value.last == "\"" else { return String(value) }
        var result = ""
        var escaped = false
        for character in value.dropFirst().dropLast() {
            if !escaped, character == "\\" {
                escaped = true
                continue
            }
            result.append(character)
            escaped = false
        }
        return result
    }
}
