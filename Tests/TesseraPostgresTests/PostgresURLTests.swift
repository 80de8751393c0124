import Testing

@testable import TesseraPostgres

/// `DATABASE_URL` as operators write it, and every way it can be wrong.
@Suite struct PostgresURLTests {
    @Test func readsTheUsualForm() throws {
        let url = try PostgresURL("postgres://shop:p%40ss@db.internal:6543/storefront")
        #expect(url.host == "db.internal" && url.port == 6543 && url.username == "shop" && url.password == "p@ss" && url.database == "storefront")
        #expect(try PostgresURL("postgresql://shop@db/storefront").port == 5432, "the default port")
        #expect(try PostgresURL("postgres://shop@db/storefront").password == nil)
        #expect(try PostgresURL("postgres://shop:a%2541@db/storefront").password == "a%41", "decoded once")
        #expect(url.description == "postgres://shop:…@db.internal:6543/storefront", "logs never show the password")
        #expect(url.tlsMode == .prefer && url.conninfo.contains("sslmode=prefer"), "libpq's own default")
    }

    /// libpq's TLS options, passed on as libpq reads them, and shown in logs.
    @Test func readsTheTLSOptions() throws {
        let url = try PostgresURL("postgres://shop@db/storefront?sslmode=verify-full&sslrootcert=/etc/tessera/db%20ca.pem")
        #expect(url.tlsMode == .verifyFull && url.rootCertificate == "/etc/tessera/db ca.pem")
        #expect(url.conninfo.contains("sslmode=verify-full sslrootcert='/etc/tessera/db ca.pem'"))
        #expect(url.description == "postgres://shop@db:5432/storefront?sslmode=verify-full&sslrootcert=/etc/tessera/db ca.pem")
        for mode in PostgresURL.TLSMode.allCases {
            #expect(try PostgresURL("postgres://shop@db/storefront?sslmode=\(mode.rawValue)").conninfo.contains("sslmode=\(mode.rawValue) "))
        }
    }

    @Test(arguments: [
        ("", "is not a URL"),
        ("db.internal:5432", "scheme"),
        ("mysql://shop@db/storefront", "expected postgres://"),
        ("postgres://shop@/storefront", "names no host"),
        ("postgres://db/storefront", "names no user"),
        ("postgres://shop@db", "names no database"),
        ("postgres://shop@db/", "names no database"),
        ("postgres://shop@db/a/b", "names no database"),
        ("postgres://shop@db:0/storefront", "outside 1–65535"),
        ("postgres://shop@db/storefront?sslmode=on", "expected one of disable, allow, prefer, require, verify-ca, verify-full"),
        ("postgres://shop@db/storefront?sslmode", "has sslmode="),
        ("postgres://shop@db/storefront?sslrootcert=", "empty sslrootcert"),
        ("postgres://shop@db/storefront?pool=5", "the option pool, which Tessera does not read"),
        // Issue 61, finding 5: a CA file that nothing checks against, under the default prefer.
        ("postgres://shop@db/storefront?sslrootcert=/etc/ca.pem", "sslrootcert with sslmode=prefer"),
        ("postgres://shop@db/storefront?sslmode=require&sslrootcert=/etc/ca.pem", "sslrootcert with sslmode=require"),
    ])
    func refusesWhatItCannotUse(text: String, reason: String) {
        #expect {
            _ = try PostgresURL(text)
        } throws: { error in
            (error as? PostgresURL.Invalid).map { $0.description.hasPrefix("DATABASE_URL ") && $0.description.contains(reason) } ?? false
        }
    }
}
