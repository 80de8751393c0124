import Logging
import Tessera
import TesseraPostgres

/// TechEmpower's database in PostgreSQL (`world`, 10,000 rows, and `fortune`), read and written
/// by its rules: one prepared statement per row for `/db`, `/queries` and `/updates`'s reads,
/// one batched `UPDATE` for `/updates`' writes, and `fortune` read on every `/fortunes`.
///
/// Statements are prepared once per connection (``PostgresConnections/execute(_:within:)``), as the C
/// reference prepares them once per thread with libpq.
struct TechEmpowerDatabase: FortuneSource {
    let connections: PostgresConnections
    /// Every `world` row as it was at start: what `/cached-queries` answers from.
    let cachedWorlds: [World]
    /// Where ids and new random numbers come from.
    private let worldIDs = WorldIDs()

    /// Opens the database, first making and filling its tables when it has none (as
    /// TechEmpower's `create-postgres.sql` does), so that the C reference and the peers, which
    /// only read, find them.
    init(connections: PostgresConnections) async throws {
        self.connections = connections
        try await connections.write(within: .outsideRequest) { connection in
            if try connection.rows("SELECT to_regclass('world') IS NULL").first?.decode(Bool.self) ?? true {
                try connection.execute("CREATE TABLE world (id integer PRIMARY KEY, randomnumber integer NOT NULL DEFAULT 0)")
                try connection.execute(
                    """
                    INSERT INTO world (id, randomnumber)
                    SELECT id, least(floor(random() * 10000 + 1), 10000) FROM generate_series(1, \(World.count)) AS id
                    """)
            }
            if try connection.rows("SELECT to_regclass('fortune') IS NULL").first?.decode(Bool.self) ?? true {
                try connection.execute("CREATE TABLE fortune (id integer PRIMARY KEY, message text NOT NULL)")
                for fortune in FortuneStore.rows {
                    try connection.execute("INSERT INTO fortune (id, message) VALUES (\(fortune.id), \(fortune.message))")
                }
            }
        }
        cachedWorlds = try await connections.query("SELECT id, randomnumber FROM world ORDER BY id", within: .outsideRequest)
            .map { row in try row.decode((Int32, Int32).self) }
            .map { World(id: $0.0, randomNumber: $0.1) }
    }

    /// A statement that takes `seconds` in the database.
    func sleep(seconds: Int, within budget: DatabaseBudget) async throws {
        _ = try await connections.query("SELECT pg_sleep(\(seconds))", within: budget)
    }

    /// One random row, by its own query.
    func randomWorld(within budget: DatabaseBudget) async throws -> World {
        try await world(worldIDs.next(), within: budget)
    }

    /// `count` random rows, each by its own query (TechEmpower forbids one `IN (…)` for all),
    /// one after another on one connection.
    func randomWorlds(_ count: Int, within budget: DatabaseBudget) async throws -> [World] {
        let ids = worldIDs.next(count)
        return try await connections.withConnection(within: budget) { connection in try await Self.worlds(ids, on: connection) }
    }

    /// `count` random rows read one by one, each given a new random number, all written in one
    /// statement, on one connection. The ids go in ascending order, so two requests updating
    /// the same rows lock them in the same order and never deadlock; an id drawn twice is
    /// written once, with the number it was given last, which every copy of it in the answer
    /// shows.
    func updateRandomWorlds(_ count: Int, within budget: DatabaseBudget) async throws -> [World] {
        try await connections.withConnection(within: budget) { connection in
            var worlds = try await Self.worlds(worldIDs.next(count), on: connection)
            var newNumbers: [Int32: Int32] = [:]
            let numbers = worldIDs.next(worlds.count)
            for index in worlds.indices {
                worlds[index].randomNumber = numbers[index]
                newNumbers[worlds[index].id] = worlds[index].randomNumber
            }
            for index in worlds.indices { worlds[index].randomNumber = newNumbers[worlds[index].id]! }
            let ids = newNumbers.keys.sorted()
            _ = try await connection.execute(UpdateWorlds(ids: ids, numbers: ids.map { newNumbers[$0]! }))
            return worlds
        }
    }

    /// The rows `ids` name, queued on the connection together, each its own statement.
    private static func worlds(_ ids: [Int32], on connection: PostgresLease) async throws -> [World] {
        try await zip(ids, connection.execute(all: ids.map { WorldByID(id: $0) })).map { id, rows in
            guard let row = rows.first else { throw MissingWorld(id: id) }
            return World(id: row.0, randomNumber: row.1)
        }
    }

    /// `count` random rows from the copy taken at start.
    func cachedRandomWorlds(_ count: Int) -> [World] {
        worldIDs.next(count) { cachedWorlds[Int($0) - 1] }
    }

    func all(within budget: DatabaseBudget) async throws -> [Fortune] {
        try await connections.execute(AllFortunes(), within: budget).map { Fortune(id: $0.0, message: $0.1) }
    }

    private func world(_ id: Int32, within budget: DatabaseBudget) async throws -> World {
        guard let row = try await connections.execute(WorldByID(id: id), within: budget).first else { throw MissingWorld(id: id) }
        return World(id: row.0, randomNumber: row.1)
    }

    struct MissingWorld: Error { var id: Int32 }

    struct WorldByID: PostgresPreparedStatement {
        static let sql = "SELECT id, randomnumber FROM world WHERE id = $1"
        typealias Row = (Int32, Int32)
        var id: Int32

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 1)
            bindings.append(id)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
    }

    /// Every changed row in one statement: the ids and their numbers as two arrays, joined.
    /// No `SELECT` in its text: TechEmpower's verifier counts a statement with `world` and
    /// `select` in it as one that reads rows.
    struct UpdateWorlds: PostgresPreparedStatement {
        static let sql = """
            UPDATE world SET randomnumber = new.randomnumber
            FROM unnest($1::integer[], $2::integer[]) AS new (id, randomnumber)
            WHERE world.id = new.id
            """
        typealias Row = Int32
        var ids: [Int32]
        var numbers: [Int32]

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 2)
            bindings.append(ids)
            bindings.append(numbers)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
    }

    struct AllFortunes: PostgresPreparedStatement {
        static let sql = "SELECT id, message FROM fortune"
        typealias Row = (Int, String)

        func makeBindings() throws -> PostgresBindings { PostgresBindings() }
        func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
    }
}
