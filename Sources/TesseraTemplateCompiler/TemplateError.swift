/// A position in a template, 1-based, as editors show it.
public struct SourceLocation: Sendable, Equatable {
    public var line: Int
    public var column: Int
}

/// A template that cannot be compiled, with where and why. Its description is the
/// `path:line:column: error: message` form that compilers use, so SwiftPM, editors and CI
/// logs all point at the template.
public struct TemplateError: Error, Sendable, Equatable, CustomStringConvertible {
    public var path: String
    public var location: SourceLocation
    public var message: String

    public var description: String {
        "\(path):\(location.line):\(location.column): error: \(message)"
    }

    /// The same place and message as a warning, which does not fail the build.
    public var warningDescription: String {
        "\(path):\(location.line):\(location.column): warning: \(message)"
    }
}
