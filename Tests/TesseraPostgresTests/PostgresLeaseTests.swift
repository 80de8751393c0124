import PostgresTestSupport
import Tessera
import TesseraPostgres
import Testing

/// A request's statements on one leased connection: all of them on that one session, answered
/// in the order asked even when queued together, and the connection back in the pool after.
@Suite struct PostgresLeaseTests {
    struct Echo: PostgresPreparedStatement {
        static let sql = "SELECT $1::integer, pg_backend_pid()"
        typealias Row = (Int32, Int32)
        var number: Int32

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 1)
            bindings.append(number)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
    }

    @Test func statementsRunOnOneConnectionInTheOrderAsked() async throws {
        let url = try await PostgresTestCluster.newDatabase()
        let connections = PostgresTestCluster.connections(url, size: 2)
        let (one, queued) = try await connections.withConnection(within: .outsideRequest) { connection in
            (try await connection.execute(Echo(number: 7)), try await connection.execute(all: (1...20).map { Echo(number: Int32($0)) }))
        }
        #expect(one.map(\.0) == [7])
        #expect(queued.map { $0.map(\.0) } == (1...20).map { [Int32($0)] })
        // One server process answered every statement: one connection, never given back between them.
        #expect(Set(([one] + queued).flatMap { $0.map(\.1) }).count == 1)
        // Given back once the body returned: a pool of two serves two more leases at once.
        async let first = connections.withConnection(within: .outsideRequest) { try await $0.execute(Echo(number: 1)) }
        async let second = connections.withConnection(within: .outsideRequest) { try await $0.execute(Echo(number: 2)) }
        let (firstRows, secondRows) = try await (first, second)
        #expect(firstRows.map(\.0) == [1] && secondRows.map(\.0) == [2])
        await connections.shutdown()
        await PostgresTestCluster.drop(url)
    }

    /// A batch whose fourth statement fails (a division by zero) throws that statement's error,
    /// the first three having run, and the connection goes on answering the next batch whole.
    @Test func aBatchFailsWithItsFirstErrorAndTheConnectionGoesOn() async throws {
        struct Inverse: PostgresPreparedStatement {
            static let sql = "SELECT 12 / $1::integer"
            typealias Row = Int
            var number: Int32

            func makeBindings() throws -> PostgresBindings {
                var bindings = PostgresBindings(capacity: 1)
                bindings.append(number)
                return bindings
            }

            func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Int.self) }
        }
        let url = try await PostgresTestCluster.newDatabase()
        let connections = PostgresTestCluster.connections(url, size: 1)
        try await connections.withConnection(within: .outsideRequest) { (connection: PostgresLease) async throws in
            await #expect {
                try await connection.execute(all: [1, 2, 3, 0, 4].map { Inverse(number: $0) })
            } throws: { error in
                (error as? PostgresError)?.sqlState == "22012"
            }
            #expect(try await connection.execute(all: [1, 2, 3, 4].map { Inverse(number: $0) }) == [[12], [6], [4], [3]])
            #expect(try await connection.execute(all: [Inverse]()).isEmpty)
        }
        await connections.shutdown()
        await PostgresTestCluster.drop(url)
    }

    /// libpq sends text values as C strings: one with a NUL is refused whole, never stored cut
    /// short, on the loop's connections and on the transactions' alike.
    @Test func aTextWithANULIsRefusedNotCutShort() async throws {
        let url = try await PostgresTestCluster.newDatabase()
        let connections = PostgresTestCluster.connections(url, size: 2)
        try await connections.execute("CREATE TABLE note (body text)", within: .outsideRequest)
        let cut = "before\u{0}after"
        for attempt in 0..<2 {
            await #expect {
                if attempt == 0 {
                    try await connections.execute("INSERT INTO note VALUES (\(cut))", within: .outsideRequest)
                } else {
                    try await connections.write(within: .outsideRequest) { try $0.execute("INSERT INTO note VALUES (\(cut))") }
                }
            } throws: { error in
                (error as? PostgresError)?.sqlState == "22021"
            }
        }
        #expect(try await connections.query("SELECT count(*) FROM note", within: .outsideRequest)[0].decode(Int.self) == 0, "nothing stored")
        await connections.shutdown()
        await PostgresTestCluster.drop(url)
    }
}
