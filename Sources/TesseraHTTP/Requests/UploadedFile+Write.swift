public import Foundation

extension UploadedFile {
    /// Writes the file into `directory` under ``safeFileName`` and returns its URL. It never
    /// overwrites: an existing name is an error, so two uploads cannot silently replace each
    /// other. A spooled file is copied in pieces, never whole in memory.
    @discardableResult
    public func write(into directory: URL) throws -> URL {
        guard let name = safeFileName else {
            throw HTTPError(.fileNameUnusable)
        }
        let destination = directory.appendingPathComponent(name, isDirectory: false)
        try contents.copy(to: destination.path)
        return destination
    }
}
