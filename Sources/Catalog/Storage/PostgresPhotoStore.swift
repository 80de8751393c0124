import Foundation
public import Tessera
public import TesseraPostgres

/// Photos with PostgreSQL: the variants' bytes in the database too, so every instance behind the
/// balancer serves every photo, whichever instance took the upload.
public struct PostgresPhotoStore: PhotoStore {
    let connections: PostgresConnections

    public init(connections: PostgresConnections) {
        self.connections = connections
    }

    /// The photos' tables; the storefront runs them with the catalog's own migrations.
    public static func registerMigrations(in migrator: inout PostgresMigrator) {
        migrator.register(
            "catalog.v4.photos",
            [
                """
                CREATE TABLE product_photo (
                    product_id bigint NOT NULL REFERENCES product ON DELETE CASCADE,
                    fingerprint text NOT NULL,
                    width integer NOT NULL,
                    height integer NOT NULL,
                    added_at timestamptz NOT NULL DEFAULT now(),
                    PRIMARY KEY (product_id, fingerprint)
                )
                """,
                "CREATE TABLE photo_variant (name text PRIMARY KEY, bytes bytea NOT NULL)",
            ])
        // Demo photos an older server listed by a made-up fingerprint (`de30…`) and drew when
        // first asked for: nothing draws them any more, so they go, and `storefront seed` adds
        // the demo photos again as uploads.
        migrator.register(
            "catalog.v5.forget-drawn-demo-photos",
            [
                "DELETE FROM product_photo WHERE fingerprint LIKE 'de30%'",
                "DELETE FROM photo_variant WHERE name LIKE 'de30%'",
            ])
    }

    public func photos(of productIDs: [Int], within budget: DatabaseBudget) async throws -> [Int: [ProductPhoto]] {
        guard !productIDs.isEmpty else { return [:] }
        let rows = try await connections.query(
            """
            SELECT product_id, fingerprint, width, height FROM product_photo
            WHERE product_id = ANY(\(productIDs)) ORDER BY product_id, added_at DESC, fingerprint
            """, within: budget)
        let photos = try rows.map { row in
            let (productID, fingerprint, width, height) = try row.decode((Int, String, Int, Int).self)
            return ProductPhoto(productID: productID, fingerprint: fingerprint, width: width, height: height)
        }
        return Dictionary(grouping: photos, by: \.productID)
    }

    public func add(_ photo: ProductPhoto, variants: [PhotoVariantName: [UInt8]], within budget: DatabaseBudget) async throws {
        try await connections.write(within: budget) { connection in
            for (name, bytes) in variants {
                try connection.execute(
                    """
                    INSERT INTO photo_variant (name, bytes) VALUES (\(name.pathSegment), \(PostgresBytes(bytes))) ON CONFLICT (name) DO NOTHING
                    """)
            }
            try connection.execute(
                """
                INSERT INTO product_photo (product_id, fingerprint, width, height) VALUES (\(photo.productID), \(photo.fingerprint), \(photo.width), \(photo.height))
                ON CONFLICT (product_id, fingerprint) DO UPDATE SET added_at = now()
                """)
        }
    }

    public func variant(_ name: PhotoVariantName, within budget: DatabaseBudget) async throws -> StoredVariant? {
        try await connections.query("SELECT bytes FROM photo_variant WHERE name = \(name.pathSegment)", within: budget).first
            .map { .bytes(try $0.decode(PostgresBytes.self).bytes) }
    }
}
