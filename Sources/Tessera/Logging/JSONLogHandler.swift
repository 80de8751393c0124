public import Logging
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A swift-log handler that prints one JSON object per line on stdout, the form log shippers
/// (Loki, Elastic, CloudWatch, Datadog) read without a parsing rule:
///
/// ```json
/// {"time":"2026-11-23T14:08:01.123Z","level":"info","logger":"storefront","message":"GET / 200 5120 1.9ms","request_id":"k3x9q0000001z4","remote":"10.0.0.7"}
/// ```
///
/// Metadata becomes fields of the object, beside `time`, `level`, `logger` and `message`, which
/// win over metadata of the same name. Lines from all threads are written whole, one at a time.
public struct JSONLogHandler: LogHandler {
    /// The metadata every line of this logger carries, such as the request id.
    public var metadata: Logger.Metadata = [:]
    /// The least severe level written.
    public var logLevel: Logger.Level = .info
    private let label: String
    private let output: StandardOutput

    /// A handler for the logger named `label`, writing to stdout.
    public init(label: String) {
        self.label = label
        self.output = .shared
    }

    /// One of this logger's metadata values.
    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Writes one line.
    public func log(event: LogEvent) {
        var fields = self.metadata
        if let explicit = event.metadata { fields.merge(explicit) { $1 } }
        if let error = event.error { fields["error"] = "\(String(reflecting: error))" }
        var json = "{\"time\":\"\(Self.timestamp())\",\"level\":\"\(event.level.rawValue)\",\"logger\":"
        Self.appendString(label, to: &json)
        json += ",\"message\":"
        Self.appendString(event.message.description, to: &json)
        for (key, value) in fields.sorted(by: { $0.key < $1.key }) where !Self.reserved.contains(key) {
            json += ","
            Self.appendString(key, to: &json)
            json += ":"
            Self.append(value, to: &json)
        }
        json += "}\n"
        output.write(json)
    }

    private static let reserved: Set<String> = ["time", "level", "logger", "message"]

    private static func append(_ value: Logger.Metadata.Value, to json: inout String) {
        switch value {
        case .string(let text):
            appendString(text, to: &json)
        case .stringConvertible(let convertible):
            appendString(convertible.description, to: &json)
        case .array(let values):
            json += "["
            for (index, element) in values.enumerated() {
                if index > 0 { json += "," }
                append(element, to: &json)
            }
            json += "]"
        case .dictionary(let dictionary):
            json += "{"
            for (index, (key, element)) in dictionary.sorted(by: { $0.key < $1.key }).enumerated() {
                if index > 0 { json += "," }
                appendString(key, to: &json)
                json += ":"
                append(element, to: &json)
            }
            json += "}"
        }
    }

    /// A JSON string literal (RFC 8259): quotes, backslashes and control characters escaped.
    static func appendString(_ text: String, to json: inout String) {
        json += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": json += "\\\""
            case "\\": json += "\\\\"
            case "\n": json += "\\n"
            case "\r": json += "\\r"
            case "\t": json += "\\t"
            case let control where control.value < 0x20 || control.value == 0x7F:
                let hex = String(control.value, radix: 16)
                json += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default:
                json.unicodeScalars.append(scalar)
            }
        }
        json += "\""
    }

    /// UTC, ISO 8601 with milliseconds.
    private static func timestamp() -> String {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var parts = tm()
        var seconds = now.tv_sec
        gmtime_r(&seconds, &parts)
        func pad(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(pad(Int(parts.tm_year) + 1900, 4))-\(pad(Int(parts.tm_mon) + 1, 2))-\(pad(Int(parts.tm_mday), 2))T"
            + "\(pad(Int(parts.tm_hour), 2)):\(pad(Int(parts.tm_min), 2)):\(pad(Int(parts.tm_sec), 2)).\(pad(now.tv_nsec / 1_000_000, 3))Z"
    }

    /// stdout, one whole line at a time: loggers on many threads share it.
    final class StandardOutput: Sendable {
        static let shared = StandardOutput()
        private let lock = Mutex(())

        func write(_ line: String) {
            lock.withLock { _ in
                var line = line
                line.withUTF8 { bytes in
                    var offset = 0
                    while offset < bytes.count {
                        #if canImport(Glibc)
                        let written = Glibc.write(STDOUT_FILENO, bytes.baseAddress! + offset, bytes.count - offset)
                        #else
                        let written = Darwin.write(STDOUT_FILENO, bytes.baseAddress! + offset, bytes.count - offset)
                        #endif
                        if written <= 0 {
                            if written < 0 && errno == EINTR { continue }
                            return
                        }
                        offset += written
                    }
                }
            }
        }
    }
}
