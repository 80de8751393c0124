public import Foundation

/// A day on a page, written as the page's language writes dates ("Nov 24, 2025",
/// "24. Nov. 2025"), in UTC so that a page does not depend on the server's zone.
///
/// View models hold the date, not a formatted string, so one model renders in any language.
public struct LocalizedDate: Sendable, Equatable, HTMLOutputConvertible {
    public var date: Date

    public init(_ date: Date) {
        self.date = date
    }

    /// The date as `language` writes it, month abbreviated.
    public func formatted(in language: Language) -> String {
        date.formatted(Date.FormatStyle(date: .abbreviated, time: .omitted, locale: Locale(identifier: language.code), timeZone: .gmt))
    }

    public func write(to output: inout HTMLOutput, context: HTMLContext) {
        formatted(in: output.language).write(to: &output, context: context)
    }
}
