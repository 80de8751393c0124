import ArgumentParser
public import Foundation

/// The one rule for every setting of a Tessera app and its modules: a command-line flag wins,
/// else its environment variable, else the default; an empty variable counts as unset, and one
/// that cannot be read stops the start with a message naming it.
public struct OptionEnvironment: Sendable {
    /// The variables read, the process's by default.
    public let variables: [String: String]

    /// Reads `variables`; tests pass their own.
    public init(_ variables: [String: String] = ProcessInfo.processInfo.environment) {
        self.variables = variables
    }

    /// The flag, else the variable, else `nil`; either one empty counts as not given.
    public func string(_ flag: String?, _ variable: String) -> String? {
        (flag ?? variables[variable]).flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The flag, else the variable read by `parse`, else `fallback`. A variable `parse` cannot
    /// read throws `VARIABLE=value is not valid.`
    public func value<T>(_ flag: T?, _ variable: String, default fallback: T, _ parse: (String) -> T?) throws -> T {
        if let flag { return flag }
        guard let raw = variables[variable], !raw.isEmpty else { return fallback }
        guard let parsed = parse(raw) else { throw ValidationError("\(variable)=\(raw) is not valid.") }
        return parsed
    }
}
