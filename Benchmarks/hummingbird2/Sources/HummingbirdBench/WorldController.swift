import Hummingbird
import PostgresNIO

/// `/db`, `/queries`, `/updates` and `/cached-queries`: raw SQL through prepared statements on
/// the PostgresClient, as TechEmpower's entry does.
struct WorldController {
    typealias Context = BenchRequestContext
    let postgresClient: PostgresClient
    /// Every `world` row, read once at start, indexed by id.
    let cache: WorldCache

    var routes: RouteCollection<Context> {
        RouteCollection(context: Context.self)
            .get("db", use: self.single)
            .get("queries", use: self.multiple)
            .get("updates", use: self.updates)
            .get("cached-queries", use: self.cached)
    }

    /// One random row, on whichever connection the pool leases for the statement.
    @Sendable func single(request: Request, context: Context) async throws -> World {
        let id = Int32.random(in: 1...10_000)
        let rows = try await self.postgresClient.execute(SelectWorld(id: id), logger: context.logger)
        return try await Self.one(rows, id: id)
    }

    /// N random rows, one query each, on one leased connection.
    @Sendable func multiple(request: Request, context: Context) async throws -> [World] {
        let count = request.count("queries")
        return try await self.postgresClient.withConnection { connection in
            var worlds: [World] = []
            worlds.reserveCapacity(count)
            for _ in 0..<count {
                let id = Int32.random(in: 1...10_000)
                let rows = try await connection.execute(SelectWorld(id: id), logger: context.logger)
                worlds.append(try await Self.one(rows, id: id))
            }
            return worlds
        }
    }

    /// N random rows, each read by its own query, then given new numbers in one batched UPDATE.
    @Sendable func updates(request: Request, context: Context) async throws -> [World] {
        let count = request.count("queries")
        return try await self.postgresClient.withConnection { connection in
            var worlds: [World] = []
            worlds.reserveCapacity(count)
            for _ in 0..<count {
                let id = Int32.random(in: 1...10_000)
                let rows = try await connection.execute(SelectWorld(id: id), logger: context.logger)
                var world = try await Self.one(rows, id: id)
                world.randomNumber = Int32.random(in: 1...10_000)
                worlds.append(world)
            }
            // A repeated id is written once, with its last number; ids go in ascending order, so
            // that concurrent batches lock shared rows in the same order.
            var latest: [Int32: Int32] = [:]
            latest.reserveCapacity(count)
            for world in worlds { latest[world.id] = world.randomNumber }
            let ids = latest.keys.sorted()
            let update = UpdateWorlds(ids: ids, randomNumbers: ids.map { latest[$0]! })
            // Read to its end: PostgresNIO's `Row == ()` overload, which returns the command tag,
            // traps on a finished statement (postgres-nio 1.33.2).
            for try await _ in try await connection.execute(update, logger: context.logger) {}
            // The answer shows what the table now holds, repeated ids included.
            for index in worlds.indices { worlds[index].randomNumber = latest[worlds[index].id]! }
            return worlds
        }
    }

    /// N random rows from memory.
    @Sendable func cached(request: Request, context: Context) async throws -> [World] {
        let count = request.count("count")
        var worlds: [World] = []
        worlds.reserveCapacity(count)
        for _ in 0..<count {
            worlds.append(self.cache[Int32.random(in: 1...10_000)])
        }
        return worlds
    }

    /// The single row a `SelectWorld` yields; the whole result is read, so the connection is free.
    static func one(
        _ rows: some AsyncSequence<(Int32, Int32), any Error>,
        id: Int32
    ) async throws -> World {
        var found: World?
        for try await (id, randomNumber) in rows {
            found = World(id: id, randomNumber: randomNumber)
        }
        guard let found else { throw HTTPError(.notFound, message: "No world \(id)") }
        return found
    }
}

struct SelectWorld: PostgresPreparedStatement {
    typealias Row = (Int32, Int32)
    static let sql = "SELECT id, randomnumber FROM world WHERE id = $1"

    var id: Int32

    func makeBindings() -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 1)
        bindings.append(self.id)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
}

struct UpdateWorlds: PostgresPreparedStatement {
    typealias Row = ()
    // `unnest` of two arrays in FROM rather than a sub-SELECT: TechEmpower's verifier counts the
    // rows of every statement that names `world` and contains "select" as rows read.
    static let sql = """
        UPDATE world SET randomnumber = v.r \
        FROM unnest($1::int[], $2::int[]) AS v (id, r) \
        WHERE world.id = v.id
        """

    var ids: [Int32]
    var randomNumbers: [Int32]

    func makeBindings() -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 2)
        bindings.append(self.ids)
        bindings.append(self.randomNumbers)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row { () }
}

/// `world` in memory, for `/cached-queries`: loaded at start over a connection of its own, then
/// only read.
struct WorldCache: Sendable {
    /// Index i holds row i; index 0 is unused.
    private let rows: [World]

    subscript(id: Int32) -> World { self.rows[Int(id)] }

    static func load(_ configuration: PostgresConnection.Configuration, logger: Logger) async throws -> WorldCache {
        let connection = try await PostgresConnection.connect(configuration: configuration, id: 0, logger: logger)
        do {
            var rows = [World?](repeating: nil, count: 10_001)
            let result = try await connection.query("SELECT id, randomnumber FROM world", logger: logger)
            for try await (id, randomNumber) in result.decode((Int32, Int32).self) where (1...10_000).contains(id) {
                rows[Int(id)] = World(id: id, randomNumber: randomNumber)
            }
            try await connection.close()
            let missing = rows.indices.dropFirst().filter { rows[$0] == nil }
            guard missing.isEmpty else {
                throw SettingsError("world lacks \(missing.count) of the ids 1...10000 (first: \(missing[0]))")
            }
            return WorldCache(rows: rows.map { $0 ?? World(id: 0, randomNumber: 0) })
        } catch {
            try? await connection.close()
            throw error
        }
    }
}
