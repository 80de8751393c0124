/// The image formats a site takes from its users, told from the file's first bytes, never from
/// its name or the type the browser claimed: a renamed executable is not a JPEG.
public enum ImageFormat: String, Sendable, CaseIterable {
    case jpeg
    case png
    case webp

    /// The format whose signature `bytes` (the file's first 12 or more) start with; `nil` for
    /// anything else.
    public init?(sniffing bytes: some Collection<UInt8>) {
        let head = Array(bytes.prefix(12))
        if head.starts(with: [0xFF, 0xD8, 0xFF]) {
            self = .jpeg
        } else if head.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            self = .png
        } else if head.count == 12, head.starts(with: Array("RIFF".utf8)), Array(head[8..<12]) == Array("WEBP".utf8) {
            self = .webp
        } else {
            return nil
        }
    }
}

/// What a variant is encoded as.
public enum VariantFormat: String, Sendable, CaseIterable {
    case jpeg
    case webp

    /// The file extension: `jpg` or `webp`.
    public var fileExtension: String { self == .jpeg ? "jpg" : "webp" }
    /// The `Content-Type`.
    public var mediaType: String { self == .jpeg ? "image/jpeg" : "image/webp" }
}
