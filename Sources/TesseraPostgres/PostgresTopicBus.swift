import Foundation
public import Logging
import Synchronization
public import Tessera

/// Live regions across instances that share one PostgreSQL: changes go out with `NOTIFY` and
/// come in with `LISTEN`, on the channel ``channel``.
///
/// A notification carries the sending instance, its version (a counter of that instance's
/// sends) and the topics, never HTML: each instance renders for its own subscribers. An instance
/// skips its own notifications, since `LiveRegions` already delivered them in the process.
///
/// The listener (``PostgresListener``) has a connection of its own, outside the pool, and
/// connects again when it drops; once it listens again it asks for every open region to be
/// rendered again: a notification sent while nobody listened is lost, and this is how no page
/// stays stale for it.
public final class PostgresTopicBus: TopicBus {
    /// The channel every instance listens on.
    public static let channel = "tessera_live"

    private let connections: PostgresConnections
    private let logger: Logger
    /// Tells this instance's notifications from the others'.
    let instance = UUID().uuidString.prefix(8).lowercased()
    private let sends = Atomic<Int64>(0)

    /// A bus through the database `connections` reach; `NOTIFY` borrows a pooled connection.
    public init(connections: PostgresConnections, logger: Logger) {
        self.connections = connections
        self.logger = logger
    }

    public func send(_ topics: [Topic]) async {
        let version = sends.add(1, ordering: .relaxed).newValue
        for payload in Self.payloads(from: String(instance), version: version, topics: topics) {
            do {
                _ = try await connections.withoutTransaction(within: .outsideRequest) { connection in
                    try connection.execute("SELECT pg_notify(\(Self.channel), \(payload))")
                }
            } catch {
                // The other instances' pages catch up at their next full refresh.
                logger.warning("could not send live topics to the other instances", metadata: ["error": "\(DatabaseUnavailable(error).reason)"])
            }
        }
    }

    public func listen(
        deliver: @escaping @Sendable ([Topic]) -> Void, resynchronize: @escaping @Sendable () -> Void,
        interrupted: @escaping @Sendable () -> Void
    ) async {
        let instance = self.instance
        await PostgresListener(channel: Self.channel, connections: connections, logger: logger).run(
            started: { resynchronize() },
            received: { payload in
                guard let message = Self.message(payload), message.instance != instance else { return }
                deliver(message.topics)
            },
            interrupted: interrupted
        )
    }

    // MARK: The payload: "tessera-live 1 <instance> <version>\n<topic>\n<topic>…"

    /// PostgreSQL refuses a payload of 8,000 bytes or more; many topics go in several notifications.
    static let payloadLimit = 7_900

    static func payloads(from instance: String, version: Int64, topics: [Topic]) -> [String] {
        let head = "tessera-live 1 \(instance) \(version)"
        var payloads: [String] = []
        var current = head
        for topic in topics where !topic.name.contains("\n") && topic.name.utf8.count < payloadLimit - head.utf8.count - 1 {
            if current.utf8.count + 1 + topic.name.utf8.count > payloadLimit {
                payloads.append(current)
                current = head
            }
            current += "\n" + topic.name
        }
        if current != head { payloads.append(current) }
        return payloads
    }

    /// A SQL expression for the payload that announces `topics` from the database itself, such
    /// as a trigger's `pg_notify`: every instance hears it, since no instance sent it.
    public static func announcement(of topics: [Topic]) -> String {
        payloads(from: "database", version: 0, topics: topics).map { payload in
            payload.split(separator: "\n", omittingEmptySubsequences: false)
                .map { "'" + $0.replacingOccurrences(of: "'", with: "''") + "'" }
                .joined(separator: " || chr(10) || ")
        }.first ?? "''"
    }

    static func message(_ payload: String) -> (instance: Substring, version: Int64, topics: [Topic])? {
        let lines = payload.split(separator: "\n")
        guard let head = lines.first else { return nil }
        let fields = head.split(separator: " ")
        guard fields.count == 4, fields[0] == "tessera-live", fields[1] == "1", let version = Int64(fields[3]) else { return nil }
        return (fields[2], version, lines.dropFirst().map { Topic(name: String($0)) })
    }
}
