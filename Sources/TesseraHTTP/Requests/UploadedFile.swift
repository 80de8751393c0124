import Foundation

/// A file received in a `multipart/form-data` body: its bytes (``contents``) in memory when the
/// body was small, in a ``SpooledFile`` when the body was large enough to be written to disk as
/// it arrived (``HTTPServerLimits/maxUploadBytes``).
public struct UploadedFile: Sendable {
    /// The form field it was sent in.
    public var fieldName: String
    /// The file name exactly as the client sent it. Never use it as a path: see ``safeFileName``.
    public var clientFileName: String
    /// The type the client claimed, if any: a claim, not a fact.
    public var contentType: String?
    /// The bytes, wherever they are kept.
    public let contents: RequestBody

    /// A file as the multipart parser found it, in memory (and for tests).
    public init(fieldName: String, clientFileName: String, contentType: String?, bytes: [UInt8]) {
        self.init(fieldName: fieldName, clientFileName: clientFileName, contentType: contentType, contents: .memory(bytes))
    }

    /// A file as the multipart parser found it.
    public init(fieldName: String, clientFileName: String, contentType: String?, contents: RequestBody) {
        self.fieldName = fieldName
        self.clientFileName = clientFileName
        self.contentType = contentType
        self.contents = contents
    }

    /// How many bytes it has.
    public var size: Int { contents.count }

    /// The first `count` bytes (fewer when the file is shorter): enough to tell its type.
    public func prefix(_ count: Int) throws -> [UInt8] {
        try contents.prefix(count)
    }

    /// All of it, in memory: for files known to be small, such as those of a small form.
    public func bytes() throws -> [UInt8] {
        try contents.bytes()
    }

    /// The client's file name reduced to something safe to create in a folder: its last path
    /// component (with `/` or `\` as separators), without control characters or leading dots.
    /// `nil` when nothing usable is left.
    public var safeFileName: String? {
        let lastComponent = clientFileName.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last ?? ""
        var cleaned = String(lastComponent.unicodeScalars.filter { !$0.properties.generalCategory.isControl })
        while cleaned.hasPrefix(".") { cleaned.removeFirst() }
        cleaned = cleaned.trimmingCharacters(in: .whitespaces)
        guard !cleaned.isEmpty, cleaned.utf8.count <= 255 else { return nil }
        return cleaned
    }
}

extension Unicode.GeneralCategory {
    var isControl: Bool {
        switch self {
        case .control, .format, .lineSeparator, .paragraphSeparator: true
        default: false
        }
    }
}
