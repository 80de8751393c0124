import Foundation
import Testing
import TesseraTestSupport

/// The architecture, checked: Catalog depends on the framework only, so it cannot name the
/// modules that extend its pages.
@Suite struct ModuleBoundaryTests {
    struct Description: Decodable {
        struct Target: Decodable {
            var name: String
            var path: String
            var target_dependencies: [String]?
        }
        var targets: [Target]
    }

    @Test(.timeLimit(.minutes(5)))
    func featureModulesDependOnlyOnWhatTheyMay() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        // Its own scratch path: `swift test` holds the lock on `.build` while the tests run.
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-describe-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        process.arguments = ["swift", "package", "--scratch-path", scratch.path, "describe", "--type", "json"]
        process.currentDirectoryURL = ProcessHarness.packageRoot
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let description = try JSONDecoder().decode(Description.self, from: data)
        let targets = Dictionary(uniqueKeysWithValues: description.targets.map { ($0.name, $0) })
        let framework: Set = ["Tessera", "TesseraHTTP", "TesseraViews", "TesseraViewsPlugin", "TesseraViewCompiler", "TesseraTemplateCompiler", "CTesseraShim", "CMicroHTTPD"]
        // Catalog and Accounts depend on the framework only; Orders may use both.
        for (module, forbidden) in [("Catalog", ["Accounts", "Orders"]), ("Accounts", ["Catalog", "Orders"])] {
            let target = try #require(targets[module])
            var reachable = Set<String>()
            var queue = target.target_dependencies ?? []
            while let next = queue.popLast() {
                guard reachable.insert(next).inserted else { continue }
                queue += targets[next]?.target_dependencies ?? []
            }
            for other in forbidden { #expect(!reachable.contains(other), "\(module) reaches \(other)") }
            #expect(reachable.isSubset(of: framework), "\(module) reaches only the framework: \(reachable)")

            let sources = ProcessHarness.packageRoot.appendingPathComponent(target.path)
            let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
            #expect(!files.isEmpty)
            for file in files where file.pathExtension == "swift" {
                let text = try String(contentsOf: file, encoding: .utf8)
                for other in forbidden {
                    #expect(!text.contains("import \(other)"), "\(file.lastPathComponent) imports \(other)")
                }
            }
        }
        #expect(targets["Orders"]?.target_dependencies?.contains("Catalog") == true, "Orders extends the catalog")
    }
}
