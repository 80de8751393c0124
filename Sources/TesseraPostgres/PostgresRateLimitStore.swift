public import Foundation
public import Tessera

/// Rate-limit counts in PostgreSQL, shared by every instance on the database, so that N
/// instances allow what one allows. An update locks its keys' rows (`FOR UPDATE`, in key order,
/// so two updates never deadlock) for one short transaction; counts that expired are deleted
/// now and then, skipping rows another update holds.
public struct PostgresRateLimitStore: RateLimitStore {
    let connections: PostgresConnections
    /// One update in this many, chosen at random, sweeps expired counts afterwards.
    static let sweepEvery = 256

    /// The counts in `connections`' database, after ``registerMigrations(in:)``'s migration ran.
    public init(connections: PostgresConnections) {
        self.connections = connections
    }

    /// The counts' table, `tessera_rate_limit`: register it with the app's own migrations.
    public static func registerMigrations(in migrator: inout PostgresMigrator) {
        // Times are seconds since 1970 from the instances' clocks, as the limits compute them.
        migrator.register(
            "tessera.v3.rate-limits",
            [
                """
                CREATE TABLE tessera_rate_limit (
                    key text PRIMARY KEY,
                    hits bigint NOT NULL,
                    last_hit double precision NOT NULL,
                    blocked_until double precision NOT NULL,
                    expires double precision NOT NULL
                )
                """,
                "CREATE INDEX tessera_rate_limit_by_expiry ON tessera_rate_limit (expires)",
            ])
    }

    public func update<Result: Sendable>(
        _ keys: [String], now: Date,
        within budget: DatabaseBudget,
        _ change: @escaping @Sendable (inout [String: RateLimitCount]) throws -> Result
    ) async throws -> Result {
        let keys = Array(Set(keys)).sorted()
        let result = try await connections.write(within: budget) { connection in
            // Makes a row for each key that has none, so every key can be locked; one
            // statement locks and reads them all (an update that changes nothing still locks).
            let rows = try connection.rows(
                """
                INSERT INTO tessera_rate_limit (key, hits, last_hit, blocked_until, expires) \
                SELECT unnest(\(keys)::text[]), 0, 0, 0, 0 \
                ON CONFLICT (key) DO UPDATE SET key = excluded.key \
                RETURNING key, hits, last_hit, blocked_until, expires
                """)
            var counts: [String: RateLimitCount] = [:]
            for row in rows {
                let (key, hits, lastHit, blockedUntil, expires) = try row.decode((String, Int, Double, Double, Double).self)
                guard expires > now.timeIntervalSince1970 else { continue }
                counts[key] = RateLimitCount(
                    hits: hits, lastHit: Date(timeIntervalSince1970: lastHit),
                    blockedUntil: Date(timeIntervalSince1970: blockedUntil), expires: Date(timeIntervalSince1970: expires))
            }
            let result = try change(&counts)
            let kept = keys.filter { counts[$0] != nil }
            let forgotten = keys.filter { counts[$0] == nil }
            if !kept.isEmpty {
                let values = kept.map { counts[$0]! }
                try connection.execute(
                    """
                    UPDATE tessera_rate_limit AS t SET hits = v.hits, last_hit = v.last_hit, blocked_until = v.blocked_until, expires = v.expires \
                    FROM unnest(\(kept)::text[], \(values.map(\.hits))::bigint[], \(values.map(\.lastHit.timeIntervalSince1970))::float8[], \
                    \(values.map(\.blockedUntil.timeIntervalSince1970))::float8[], \(values.map(\.expires.timeIntervalSince1970))::float8[]) \
                    AS v(key, hits, last_hit, blocked_until, expires) WHERE t.key = v.key
                    """)
            }
            if !forgotten.isEmpty {
                try connection.execute("DELETE FROM tessera_rate_limit WHERE key = ANY(\(forgotten)::text[])")
            }
            return result
        }
        // The count is committed: a sweep that fails is tried again by a later update.
        if Int.random(in: 0..<Self.sweepEvery) == 0 { try? await sweep(now: now, within: budget) }
        return result
    }

    /// Deletes counts that expired before `now`, a batch at a time, skipping rows an update holds.
    func sweep(now: Date, within budget: DatabaseBudget) async throws {
        try await connections.write(within: budget) { connection in
            try connection.execute(
                """
                DELETE FROM tessera_rate_limit WHERE key IN (SELECT key FROM tessera_rate_limit \
                WHERE expires < \(now.timeIntervalSince1970) LIMIT 1000 FOR UPDATE SKIP LOCKED)
                """)
        }
    }
}
