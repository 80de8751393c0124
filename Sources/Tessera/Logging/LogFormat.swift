/// How log lines are written to stdout (`LOG_FORMAT`).
public enum LogFormat: String, Sendable, CaseIterable {
    /// swift-log's plain lines, for people reading a terminal.
    case text
    /// One JSON object per line (``JSONLogHandler``), for log shippers that parse them.
    case json
}
