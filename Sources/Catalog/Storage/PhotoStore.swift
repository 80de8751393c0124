import Foundation
public import Tessera

/// Where product photos live: which products have which photos, and the bytes of each variant.
public protocol PhotoStore: Sendable {
    /// The photos of these products, newest first for each: the last one staff added leads.
    func photos(of productIDs: [Int], within budget: DatabaseBudget) async throws -> [Int: [ProductPhoto]]
    /// Keeps every variant's bytes, then lists the photo on its product; a photo the product has
    /// already (the same original) is listed once, as the newest.
    func add(_ photo: ProductPhoto, variants: [PhotoVariantName: [UInt8]], within budget: DatabaseBudget) async throws
    /// One variant's bytes, or `nil` when it has not been made.
    func variant(_ name: PhotoVariantName, within budget: DatabaseBudget) async throws -> StoredVariant?
}

/// A variant as a store keeps it: a file to send as it is, or bytes read from the database.
public enum StoredVariant: Sendable {
    case file(path: String)
    case bytes([UInt8])
}
