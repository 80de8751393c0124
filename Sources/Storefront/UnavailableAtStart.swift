import ArgumentParser
import Foundation

/// Something the server needs is not there at start: the database cannot be reached, refuses
/// the password, or `DATABASE_URL` cannot be read. Reported as operators' tooling expects: one
/// line on stderr, and exit code 69 (`EX_UNAVAILABLE`), so an orchestrator retries the start
/// instead of reporting a crash, and nobody waits for a server that will never be ready.
struct UnavailableAtStart: Error {
    let message: String

    /// Runs `body`; an ``UnavailableAtStart`` it throws becomes that one line and exit code 69.
    static func reported<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as UnavailableAtStart {
            FileHandle.standardError.write(Data("storefront: \(error.message)\n".utf8))
            throw ExitCode(69)
        }
    }
}
