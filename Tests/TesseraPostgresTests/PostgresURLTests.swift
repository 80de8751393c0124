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
        ("postgres://shop@db/storefront?sslmode=require", "does not read"),
    ])
    func refusesWhatItCannotUse(text: String, reason: String) {
        #expect {
            _ = try PostgresURL(text)
        } throws: { error in
            (error as? PostgresURL.Invalid).map { $0.description.hasPrefix("DATABASE_URL ") && $0.description.contains(reason) } ?? false
        }
    }
}
