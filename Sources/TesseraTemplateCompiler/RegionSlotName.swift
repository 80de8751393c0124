/// A `{% region %}` slot of a template, and the Swift property that names it in the view's
/// generated `Regions` type: `add-to-cart` becomes `addToCart`.
struct RegionSlotName {
    let name: String
    let isOptional: Bool
    let location: SourceLocation

    /// Lowercase letters, digits and `-`, starting with a letter, so that every name has a Swift
    /// property and stays a plain attribute value in `data-region`.
    static func isValid(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, ("a"..."z").contains(first), !name.hasSuffix("-"), !name.contains("--") else { return false }
        return name.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
    }

    var propertyName: String {
        let words = name.split(separator: "-")
        return Swift.escapedIdentifier(String(words[0]) + words.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined())
    }
}
