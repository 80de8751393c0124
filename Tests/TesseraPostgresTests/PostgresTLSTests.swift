import Foundation
import PostgresTestSupport
import Tessera
import Testing

@testable import TesseraPostgres

/// The link to PostgreSQL over TLS, as libpq makes it from `DATABASE_URL`: the throwaway cluster
/// serves a certificate from a test CA (`scripts/test-ca.sh`), which `verify-full` checks.
@Suite struct PostgresTLSTests {
    static let tlsURL = ProcessInfo.processInfo.environment["TESSERA_POSTGRES_TLS_URL"]

    /// What the server says of this connection's own link.
    static let linkQuery: PostgresQuery = "SELECT CASE WHEN ssl THEN 'TLS ' || version ELSE 'clear' END FROM pg_stat_ssl WHERE pid = pg_backend_pid()"

    @Test func verifyFullConnectsAndBothKindsOfConnectionAreEncrypted() async throws {
        let url = try PostgresURL(try #require(Self.tlsURL, "run through scripts/with-postgres.sh (make test)"))
        #expect(url.tlsMode == .verifyFull && url.rootCertificate != nil)
        let connections = PostgresTestCluster.connections(url, size: 1)
        let blocking = try await connections.read(within: .outsideRequest) { try $0.rows(Self.linkQuery)[0].decode(String.self) }
        let onTheLoop = try await connections.query(Self.linkQuery, within: .outsideRequest)[0].decode(String.self)
        #expect(blocking.hasPrefix("TLS"), "\(blocking)")
        #expect(onTheLoop.hasPrefix("TLS"), "\(onTheLoop)")
        await connections.shutdown()

        let clear = PostgresTestCluster.connections(try PostgresTestCluster.url(), size: 1)
        #expect(try await clear.query(Self.linkQuery, within: .outsideRequest)[0].decode(String.self) == "clear", "sslmode=disable")
        await clear.shutdown()
    }

    /// Answers far larger than a TLS record (16 KiB) arrive whole on both kinds of connection:
    /// bytes OpenSSL decrypted but libpq had no room for never make the socket readable again,
    /// and must be read without waiting for it.
    @Test func answersLargerThanATLSRecordArriveWhole() async throws {
        let url = try PostgresURL(try #require(Self.tlsURL, "run through scripts/with-postgres.sh (make test)"))
        let connections = PostgresTestCluster.connections(url, size: 1)
        let big: PostgresQuery = "SELECT n, repeat(chr(65 + n % 26), 70000 + n * 997) FROM generate_series(1, 40) AS n"
        for _ in 0..<3 {
            let rows = try await connections.query(big, within: .outsideRequest)
            #expect(rows.count == 40)
            let last = try rows[39].decode((Int, String).self)
            #expect(last.0 == 40 && last.1.utf8.count == 70000 + 40 * 997)
            let blocking = try await connections.read(within: .outsideRequest) { try $0.rows(big).count }
            #expect(blocking == 40)
        }
        await connections.shutdown()
    }

    /// A server whose certificate does not chain to the CA the URL names is refused, and the
    /// reason says so; `require` encrypts without checking and connects.
    @Test func aCertificateFromAnotherAuthorityIsRefused() async throws {
        let text = try #require(Self.tlsURL, "run through scripts/with-postgres.sh (make test)")
        let stranger = try PostgresURL(text.replacingOccurrences(of: "/tls/ca.crt", with: "/tls/other-ca.crt"))
        let refused = PostgresTestCluster.connections(stranger, size: 1)
        await #expect {
            try await refused.read(within: .outsideRequest) { try $0.rows("SELECT 1") }
        } throws: { error in
            (error as? DatabaseUnavailable)?.reason.contains("certificate verify failed") == true
        }
        await refused.shutdown()

        var unchecked = try PostgresURL(text)
        unchecked.tlsMode = .require
        unchecked.rootCertificate = nil
        let encrypted = PostgresTestCluster.connections(unchecked, size: 1)
        #expect(try await encrypted.query(Self.linkQuery, within: .outsideRequest)[0].decode(String.self).hasPrefix("TLS"))
        await encrypted.shutdown()
    }
}
