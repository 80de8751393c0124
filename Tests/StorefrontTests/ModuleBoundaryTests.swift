import Foundation
import TesseraTesting
import Testing

/// The architecture, checked: Catalog and Accounts depend on the framework only, so the product
/// pages cannot name the modules that extend them; Orders may use both; the back office may use
/// them all, and none of them may name it; only the composition root (`Storefront`) knows every
/// module.
@Suite struct ModuleBoundaryTests {
    struct Description: Decodable {
        struct Target: Decodable {
            var name: String
            var path: String
            var target_dependencies: [String]?
            var product_dependencies: [String]?
        }
        var targets: [Target]
    }

    @Test(.timeLimit(.minutes(5)))
    func featureModulesDependOnlyOnWhatTheyMay() async throws {
        // Its own scratch path: `swift test` holds the lock on `.build` while the tests run.
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-describe-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let describe = try await CommandOutput.of(
            ["swift", "package", "--scratch-path", scratch.path, "describe", "--type", "json"],
            in: ProcessHarness.packageRoot, includingStandardError: false)
        #expect(describe.status == 0)
        let data = Data(describe.output.utf8)
        let description = try JSONDecoder().decode(Description.self, from: data)
        let targets = Dictionary(uniqueKeysWithValues: description.targets.map { ($0.name, $0) })
        let framework: Set = [
            "Tessera", "TesseraHTTP", "TesseraViews", "TesseraMail", "TesseraPasskeys", "TesseraViewsPlugin", "TesseraViewCompiler",
            "TesseraTemplateCompiler", "CTesseraShim", "CMicroHTTPD", "CZlib", "CZstd", "CLibPQ", "TesseraPostgres", "TesseraSQLite", "TesseraImages",
            "CTesseraImages", "CVips", "CTesseraTLS", "TesseraLoop", "CTesseraLoop", "TesseraPostgresDriver", "TesseraMailSQLite",
            "TesseraMailPostgres", "TesseraJSON",
        ]
        // Catalog and Accounts depend on the framework only; Orders may use both; nobody but the
        // composition root knows Storefront.
        let features = ["Catalog", "Accounts", "Orders", "BackOffice", "Storefront"]
        let allowed: [(module: String, features: Set<String>)] = [
            ("Catalog", []), ("Accounts", []), ("Orders", ["Catalog", "Accounts"]), ("BackOffice", ["Catalog", "Orders", "Accounts"]),
        ]
        for (module, allowedFeatures) in allowed {
            let forbidden = features.filter { $0 != module && !allowedFeatures.contains($0) }
            let target = try #require(targets[module])
            var reachable = Set<String>()
            var queue = target.target_dependencies ?? []
            while let next = queue.popLast() {
                guard reachable.insert(next).inserted else { continue }
                queue += targets[next]?.target_dependencies ?? []
            }
            for other in forbidden { #expect(!reachable.contains(other), "\(module) reaches \(other)") }
            #expect(reachable.isSubset(of: framework.union(allowedFeatures)), "\(module) reaches only what it may: \(reachable)")

            // Neither its Swift sources nor its templates name a forbidden module.
            let root = ProcessHarness.packageRoot
            let folders = [root.appendingPathComponent(target.path), root.appendingPathComponent("Views/\(module)")]
            let files = folders.flatMap { FileManager.default.enumerator(at: $0, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? [] }
            #expect(files.contains { $0.pathExtension == "swift" } && files.contains { $0.pathExtension == "html" })
            for file in files where ["swift", "html"].contains(file.pathExtension) {
                let text = try String(contentsOf: file, encoding: .utf8)
                for other in forbidden {
                    #expect(!text.contains("import \(other)"), "\(file.lastPathComponent) imports \(other)")
                }
            }
        }
        #expect(targets["Orders"]?.target_dependencies?.contains("Catalog") == true, "Orders extends the catalog")

        // The framework's layers: an app of pages links no mail, SMTP client or passkeys.
        let core = try #require(targets["Tessera"])
        #expect(!(core.target_dependencies ?? []).contains { ["TesseraMail", "TesseraPasskeys"].contains($0) })
        #expect(!(core.product_dependencies ?? []).contains { $0.hasPrefix("NIO") }, "\(core.product_dependencies ?? [])")
        // No module links SwiftNIO: mail and PostgreSQL have clients of their own (decision 0030).
        for (name, target) in targets {
            #expect(!(target.product_dependencies ?? []).contains { $0.hasPrefix("NIO") || $0 == "PostgresNIO" }, "\(name) links NIO")
        }
        // The HTTP layer knows no view type and no language: the framework says its refusals.
        #expect(
            Set(targets["TesseraHTTP"]?.target_dependencies ?? []) == ["CTesseraShim", "TesseraJSON", "TesseraLoop"],
            "\(targets["TesseraHTTP"]?.target_dependencies ?? [])")
        // JSON written in place stands on Foundation alone, under the server and the views.
        #expect(targets["TesseraJSON"].map { ($0.target_dependencies ?? []).isEmpty } == true)
        // The databases know no mail: the outbox kept in each is an adapter of its own.
        for database in ["TesseraSQLite", "TesseraPostgres"] {
            let dependencies = targets[database]?.target_dependencies ?? []
            #expect(!dependencies.contains("TesseraMail"), "\(database) links mail: \(dependencies)")
        }
        // The loops know neither HTTP nor a database: the server and the driver both stand on them.
        #expect(targets["TesseraLoop"]?.target_dependencies == ["CTesseraLoop"], "\(targets["TesseraLoop"]?.target_dependencies ?? [])")
        #expect(
            Set(targets["TesseraPostgresDriver"]?.target_dependencies ?? []) == ["CLibPQ", "CTesseraTLS", "TesseraLoop"],
            "the driver stands on the loops and libpq alone: \(targets["TesseraPostgresDriver"]?.target_dependencies ?? [])")
    }

    /// Each module's tables, and the SQL that names them: no module reads or writes another's
    /// tables; stock moves go through Catalog's `StockReservations`, carts through `CartWrites`.
    @Test func noModuleTouchesAnotherModulesTables() throws {
        let tables = ["Catalog": ["product", "category"], "Accounts": ["user"], "Orders": ["cartLine", "customerOrder", "orderLine", "payment"]]
        let root = ProcessHarness.packageRoot
        for (module, _) in tables {
            let folder = root.appendingPathComponent("Sources/\(module)")
            let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
            #expect(!files.isEmpty)
            for file in files where file.pathExtension == "swift" {
                let sql = try String(contentsOf: file, encoding: .utf8)
                for (owner, owned) in tables where owner != module {
                    for table in owned {
                        for verb in ["FROM ", "INTO ", "UPDATE ", "JOIN ", "TABLE "] {
                            #expect(
                                !sql.contains(verb + table + " ") && !sql.contains(verb + table + "\""),
                                "\(module)/\(file.lastPathComponent) names \(owner)'s table \(table)")
                        }
                    }
                }
            }
        }
    }
}
