import Foundation

/// A carrier's tracking number as staff type it: letters, digits and dashes, 6 to 34 of them,
/// kept in capitals.
public struct TrackingNumber: Sendable, Equatable {
    /// The number as stored and shown: trimmed and in capitals.
    public let text: String

    /// `nil` when `raw` is not one.
    public init?(_ raw: String) {
        let text = raw.trimmingCharacters(in: .whitespaces).uppercased()
        guard (6...34).contains(text.count), text.unicodeScalars.allSatisfy({ ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }),
            text.contains(where: { $0 != "-" })
        else {
            return nil
        }
        self.text = text
    }
}
