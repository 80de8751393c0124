/// `Content-Type` by file extension, for the kinds of files a site's `Public/` folder holds.
/// Anything unknown is `application/octet-stream`, which browsers download rather than sniff.
enum MediaTypes {
    static let byExtension: [String: String] = [
        "html": "text/html; charset=utf-8",
        "htm": "text/html; charset=utf-8",
        "css": "text/css; charset=utf-8",
        "js": "text/javascript; charset=utf-8",
        "mjs": "text/javascript; charset=utf-8",
        "json": "application/json",
        "map": "application/json",
        "txt": "text/plain; charset=utf-8",
        "xml": "application/xml",
        "svg": "image/svg+xml",
        "png": "image/png",
        "jpg": "image/jpeg",
        "jpeg": "image/jpeg",
        "gif": "image/gif",
        "webp": "image/webp",
        "avif": "image/avif",
        "ico": "image/x-icon",
        "woff": "font/woff",
        "woff2": "font/woff2",
        "pdf": "application/pdf",
        "webmanifest": "application/manifest+json",
        "wasm": "application/wasm",
    ]

    /// Whether a body of `contentType` shrinks under gzip: text, JSON, XML and SVG do; images,
    /// fonts and archives are compressed already.
    static func isCompressible(_ contentType: String) -> Bool {
        // Every page asks this, so the usual answer comes without building a string.
        if contentType.utf8.starts(with: "text/".utf8) { return true }
        let type = contentType.prefix { $0 != ";" }.lowercased()
        return type.hasPrefix("text/") || type == "application/json" || type == "application/manifest+json"
            || type == "application/xml" || type == "image/svg+xml" || type == "application/javascript"
            || type.hasSuffix("+xml") || type.hasSuffix("+json")
    }

    static func forPath(_ path: String) -> String {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return "application/octet-stream" }
        return byExtension[path[path.index(after: dot)...].lowercased()] ?? "application/octet-stream"
    }
}
