public import TesseraViews

/// An amount of the shop's currency on a page: written as the page's language writes money
/// (`$1,250.00`, `1.250,00 $`), so view models hold the amount and never a formatted string.
public struct Price: Sendable, Equatable, HTMLOutputConvertible, CustomStringConvertible {
    /// Cents of ``Money/currencyCode``.
    public var minor: Int

    public init(minor: Int) {
        self.minor = minor
    }

    /// The amount as `language` writes it, for text that Swift code hands on (a flash).
    public func formatted(in language: Language) -> String {
        language.format(minor: minor, currency: Money.currencyCode)
    }

    public func write(to output: inout HTMLOutput, context: HTMLContext) {
        formatted(in: output.language).write(to: &output, context: context)
    }

    /// In English, for logs and staff-only text.
    public var description: String { formatted(in: .english) }
}
