import Foundation

/// A file received in a `multipart/form-data` body. It lives in memory until written.
public struct UploadedFile: Sendable {
    /// The form field it was sent in.
    public var fieldName: String
    /// The file name exactly as the client sent it. Never use it as a path: see ``safeFileName``.
    public var clientFileName: String
    /// The type the client claimed, if any: a claim, not a fact.
    public var contentType: String?
    /// The file's content, in memory.
    public var bytes: [UInt8]

    /// A file as the multipart parser found it.
    public init(fieldName: String, clientFileName: String, contentType: String?, bytes: [UInt8]) {
        self.fieldName = fieldName
        self.clientFileName = clientFileName
        self.contentType = contentType
        self.bytes = bytes
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

    /// Writes the file into `directory` under ``safeFileName`` and returns its URL. It never
    /// overwrites: an existing name is an error, so two uploads cannot silently replace each other.
    @discardableResult
    public func write(into directory: URL) throws -> URL {
        guard let name = safeFileName else {
            throw HTTPError(.badRequest, message: "The uploaded file has no usable name.")
        }
        let destination = directory.appendingPathComponent(name, isDirectory: false)
        let descriptor = open(destination.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw CocoaError(errno == EEXIST ? .fileWriteFileExists : .fileWriteUnknown)
        }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        try handle.write(contentsOf: bytes)
        try handle.close()
        return destination
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
