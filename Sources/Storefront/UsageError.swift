import ArgumentParser
import Foundation

/// A setting or argument that is not valid, reported as operators' tooling expects: one line on
/// stderr that names it, and exit code 64 (`EX_USAGE`), without the usage text ArgumentParser
/// would add, which buries the reason in a container's log.
enum UsageError {
    /// Runs `body`; a ``ValidationError`` it throws becomes that one line and exit code 64.
    static func reported<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as ValidationError {
            FileHandle.standardError.write(Data("storefront: \(error.message)\n".utf8))
            throw ExitCode.validationFailure
        }
    }
}
