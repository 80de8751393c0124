import Foundation
import TesseraTesting
import Testing

/// The fixture package `Tests/Fixtures/RulesInTypes`: a shared region or a kept page that reads
/// the visitor (session, header, cookie, address, query, a middleware's value), is handed it, or
/// loads through a loader that reads it, a second image processor (a second libvips
/// thread), or a database call without its request's budget, must not compile.
///
/// Each target is type-checked with the flags SwiftPM gave this package's own `BackOffice`
/// module, which imports Tessera the same way, against the modules the suites were built with:
/// building the fixture as a package of its own would compile Tessera and swift-crypto again,
/// minutes on two cores, for the same verdict.
@Suite struct RulesInTypesFixtureTests {
    static let packageRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        while !FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) {
            url.deleteLastPathComponent()
        }
        return url
    }()

    static let fixture = packageRoot.appendingPathComponent("Tests/Fixtures/RulesInTypes")

    /// SwiftPM's manifest of the build these suites come from, whatever its configuration and
    /// scratch folder: the test bundle is `<scratch>/<triple>/<configuration>/…`, and the
    /// manifest `<scratch>/<configuration>.yaml`.
    static func buildManifest() throws -> URL {
        let bundle = URL(fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        let configuration = bundle.deletingLastPathComponent()
        let scratch = configuration.deletingLastPathComponent().deletingLastPathComponent()
        return scratch.appendingPathComponent(configuration.lastPathComponent + ".yaml")
    }

    /// The compiler and the search paths of a module of this package that imports Tessera, from
    /// SwiftPM's build manifest: the module search path, the C modules' maps and headers.
    static func compilerArguments() throws -> [String] {
        let manifest = try String(contentsOf: try buildManifest(), encoding: .utf8)
        let marker = "\"C.BackOffice-"
        let start = try #require(manifest.range(of: marker), "the suites' build manifest has no BackOffice module")
        let argsLine = try #require(manifest[start.upperBound...].split(separator: "\n").first { $0.contains("args: [") })
        let json = argsLine[argsLine.range(of: "args: ")!.upperBound...]
        let all = try JSONDecoder().decode([String].self, from: Data(json.utf8))
        var kept = [all[0], "-typecheck"]
        var index = 1
        while index < all.count {
            let argument = all[index]
            switch argument {
            case "-I", "-Xcc", "-target", "-swift-version":
                kept += [argument, all[index + 1]]
                index += 2
            default:
                if argument.hasPrefix("-I/") { kept.append(argument) }
                index += 1
            }
        }
        return kept
    }

    static func typecheck(_ target: String, with arguments: [String]) async throws -> CommandOutput {
        let source = fixture.appendingPathComponent("Sources/\(target)/Region.swift").path
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-fixture-modules").path
        return try await CommandOutput.of(arguments + ["-module-name", target, "-module-cache-path", cache, source])
    }

    @Test func breakingARuleDoesNotCompile() async throws {
        let arguments = try Self.compilerArguments()
        let fine = try await Self.typecheck("Fine", with: arguments)
        #expect(fine.status == 0, "the fixture's allowed uses must compile:\n\(fine.output)")

        let refused: [(target: String, message: String)] = [
            ("ReadsSession", "value of type 'SharedRegionContext' has no member 'session'"),
            ("ReadsHeader", "value of type 'SharedRegionContext' has no member 'request'"),
            ("ReadsCookie", "value of type 'SharedRegionContext' has no member 'cookies'"),
            ("ReadsQuery", "value of type 'SharedRegionContext' has no member 'query'"),
            ("ReadsValue", "value of type 'SharedRegionContext' has no subscripts"),
            // A page kept whole for every visitor without a session reads a visitor.
            ("KeptReadsSession", "value of type 'KeptPageContext' has no member 'session'"),
            ("KeptReadsCookie", "value of type 'KeptPageContext' has no member 'cookies'"),
            ("KeptReadsHeader", "'request' is inaccessible due to 'private' protection level"),
            ("KeptReadsAddress", "value of type 'KeptPageContext' has no member 'clientAddress'"),
            ("KeptReadsValue", "value of type 'KeptPageContext' has no subscripts"),
        ]
        for (target, message) in refused {
            let result = try await Self.typecheck(target, with: arguments)
            #expect(result.status != 0, "\(target) compiled")
            #expect(result.output.contains("Sources/\(target)/Region.swift:11:"), "\(target): \(result.output)")
            #expect(result.output.contains(message), "\(target): \(result.output)")
        }

        // Nor can the visitor be handed in: a page names a shared region by route and parameters,
        // never by an instance it made (with a context, a session, a request or a closure over
        // one); a route's parameters are not the page's model; and a loader that reads the
        // visitor takes a `RequestContext`, which a shared region's load does not have.
        let handed: [(target: String, line: Int, message: String)] = [
            ("StoresContext", 12, "cannot convert value of type 'Leak' to expected argument type 'Route<Int>'"),
            ("StoresSession", 12, "cannot convert value of type 'Leak' to expected argument type 'Route<Int>'"),
            ("StoresRequest", 12, "cannot convert value of type 'Leak' to expected argument type 'Route<Int>'"),
            ("CapturesVisitor", 12, "cannot convert value of type 'Leak' to expected argument type 'Route<Int>'"),
            ("HandsVisitorModel", 12, "cannot convert value of type 'Basket' to expected argument type 'Int'"),
            ("LoadsWithVisitor", 12, "cannot convert value of type 'SharedRegionContext' to expected argument type 'RequestContext'"),
            // A handler that takes a group's guarantee (a signed-in shopper) outside the group.
            ("GuaranteeOutsideGroup", 12, "expects 2 arguments, but 3 were used in closure body"),
            // A kept page's factory gets the route's parameters alone, never the request.
            ("KeptFactoryTakesRequest", 12, "expects 1 argument, but 2 were used in closure body"),
            // A database call in a task the handler detaches, without its request's budget: none
            // is looked up from the task, so the call must be handed one.
            ("DetachedWithoutBudget", 11, "missing argument for parameter 'within' in call"),
        ]
        for (target, line, message) in handed {
            let result = try await Self.typecheck(target, with: arguments)
            #expect(result.status != 0, "\(target) compiled")
            #expect(result.output.contains("Sources/\(target)/Region.swift:\(line):"), "\(target): \(result.output)")
            #expect(result.output.contains(message), "\(target): \(result.output)")
        }

        let secondProcessor = try await Self.typecheck("SecondImageProcessor", with: arguments)
        #expect(secondProcessor.status != 0, "a second image processor was made")
        #expect(secondProcessor.output.contains("Sources/SecondImageProcessor/Region.swift:6:"), "\(secondProcessor.output)")
        #expect(
            secondProcessor.output.contains("'ImageProcessor' initializer is inaccessible due to 'private' protection level"),
            "\(secondProcessor.output)")
    }
}
