import Foundation
public import GRDB
public import Tessera
public import TesseraSQLite

/// Photos with SQLite: the list in the database, the variants as files in the data folder
/// (`DATA_DIR/photos`), sent from there as static files are.
public struct SQLitePhotoStore: PhotoStore {
    let database: any SQLiteDatabase
    /// The folder of the variants' files.
    public let folder: String

    public init(database: any SQLiteDatabase, folder: String) {
        self.database = database
        self.folder = folder
    }

    /// The photos' table; the storefront runs it with the catalog's own migrations.
    public static func registerMigrations(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("catalog.v5.photos") { db in
            try db.execute(
                sql: """
                    CREATE TABLE productPhoto (
                        productID INTEGER NOT NULL REFERENCES product ON DELETE CASCADE,
                        fingerprint TEXT NOT NULL,
                        width INTEGER NOT NULL,
                        height INTEGER NOT NULL,
                        addedAt REAL NOT NULL,
                        PRIMARY KEY (productID, fingerprint)
                    )
                    """)
        }
        // Demo photos an older server listed by a made-up fingerprint (`de30…`) and drew when
        // first asked for: nothing draws them any more, so their listings go, and
        // `storefront seed` adds the demo photos again as uploads.
        migrator.registerMigration("catalog.v6.forget-drawn-demo-photos") { db in
            try db.execute(sql: "DELETE FROM productPhoto WHERE fingerprint LIKE 'de30%'")
        }
    }

    public func photos(of productIDs: [Int], within budget: DatabaseBudget) async throws -> [Int: [ProductPhoto]] {
        guard !productIDs.isEmpty else { return [:] }
        // One statement, on the caller's thread: a page's read.
        return try await database.unsafeRead(within: budget) { db in
            let rows = try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT productID, fingerprint, width, height FROM productPhoto
                        WHERE productID IN (\(productIDs.map { _ in "?" }.joined(separator: ","))) ORDER BY productID, addedAt DESC, fingerprint
                        """), arguments: StatementArguments(productIDs))
            return Dictionary(grouping: rows.map { ProductPhoto(productID: $0[0], fingerprint: $0[1], width: $0[2], height: $0[3]) }, by: \.productID)
        }
    }

    public func add(_ photo: ProductPhoto, variants: [PhotoVariantName: [UInt8]], within budget: DatabaseBudget) async throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for (name, bytes) in variants {
            // Renamed into place whole: a reader never sees half a file.
            try Data(bytes).write(to: URL(fileURLWithPath: folder).appendingPathComponent(name.pathSegment), options: .atomic)
        }
        try await database.write(within: budget) { db in
            try db.execute(
                sql: """
                    INSERT INTO productPhoto (productID, fingerprint, width, height, addedAt) VALUES (?, ?, ?, ?, ?)
                    ON CONFLICT (productID, fingerprint) DO UPDATE SET addedAt = excluded.addedAt
                    """, arguments: [photo.productID, photo.fingerprint, photo.width, photo.height, Date().timeIntervalSince1970])
        }
    }

    public func variant(_ name: PhotoVariantName, within budget: DatabaseBudget) async throws -> StoredVariant? {
        let path = URL(fileURLWithPath: folder).appendingPathComponent(name.pathSegment).path
        return FileManager.default.fileExists(atPath: path) ? .file(path: path) : nil
    }

}
