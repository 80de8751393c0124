import Foundation
import Tessera

/// The demo accounts the first run creates, three shoppers and one of staff, with the passwords
/// the README publishes. They are hashed as they are added, at the server's rounds: a precomputed
/// hash would fix the cost of every demo sign-in, tests' too.
public enum AccountsSeed {
    /// The demo shoppers and staff: e-mail, name and password.
    public static let users: [(email: String, name: String, password: String)] = [
        ("ada@example.com", "Ada Lovelace", "ada-lovelace-1815"),
        ("grace@example.com", "Grace Hopper", "grace-hopper-1906"),
        ("alan@example.com", "Alan Turing", "alan-turing-1912"),
        ("sam@example.com", "Sam Staff", "sam-staff-2026"),
    ]

    /// The demo staff account, for the back office.
    public static let staffEmail = "sam@example.com"

    /// Adds the demo shoppers that are missing. The staff account, whose password the README
    /// publishes, is added only with them to a new database (no Ada yet): never to a shop that
    /// already runs, where it would open the back office to anyone.
    public static func seedIfEmpty(_ store: some AccountsStore, hasher: PasswordHasher) async throws {
        let isNew = try await store.user(email: users[0].email, within: .outsideRequest) == nil
        for user in users where try await store.user(email: user.email, within: .outsideRequest) == nil {
            let isStaff = user.email == staffEmail
            guard !isStaff || isNew else { continue }
            _ = try await store.insert(
                email: user.email, name: user.name, passwordHash: try hasher.hash(user.password), isStaff: isStaff, within: .outsideRequest)
        }
    }
}
