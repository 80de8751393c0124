public import Logging
import Synchronization

/// Every line a logger was given, message and metadata as one string each, for tests that read
/// what a server logged (that a secret is in no line, say).
public final class LogRecorder: Sendable {
    private let recorded = Mutex<[String]>([])

    public init() {}

    /// A logger at `level` whose lines this records.
    public func logger(level: Logger.Level = .info) -> Logger {
        var logger = Logger(label: "recorded") { _ in Handler(recorder: self) }
        logger.logLevel = level
        return logger
    }

    /// The lines so far, oldest first: the level, the message, then `key=value` for each field.
    public var lines: [String] {
        recorded.withLock { $0 }
    }

    private func record(_ line: String) {
        recorded.withLock { $0.append(line) }
    }

    private struct Handler: LogHandler {
        let recorder: LogRecorder
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let fields = metadata.merging(event.metadata ?? [:]) { $1 }
            let shown = fields.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
            recorder.record("\(event.level) \(event.message) \(shown)")
        }
    }
}
