import Foundation
import Tessera
import TesseraTesting
import TesseraViews
import Testing

/// `PublicFiles` over real HTTP, against a throwaway `Public/` folder with a secret beside it.
@Suite struct PublicFilesTests {
    /// A temporary site: `root/Public/…` is served, `root/secret.txt` must never be.
    struct Site {
        let root: URL
        var publicFolder: URL { root.appendingPathComponent("Public") }

        init() throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-public-\(UUID().uuidString)")
            let fm = FileManager.default
            try fm.createDirectory(at: root.appendingPathComponent("Public/css"), withIntermediateDirectories: true)
            try fm.createDirectory(at: root.appendingPathComponent("outside"), withIntermediateDirectories: true)
            try "TOP-SECRET".write(to: root.appendingPathComponent("secret.txt"), atomically: true, encoding: .utf8)
            try "TOP-SECRET".write(to: root.appendingPathComponent("outside/secret.txt"), atomically: true, encoding: .utf8)
            try "body{color:red}".write(to: publicFolder.appendingPathComponent("css/site.css"), atomically: true, encoding: .utf8)
            try "0123456789".write(to: publicFolder.appendingPathComponent("digits.txt"), atomically: true, encoding: .utf8)
            try "<svg/>".write(to: publicFolder.appendingPathComponent("logo.svg"), atomically: true, encoding: .utf8)
            try Self.bigCSS.write(to: publicFolder.appendingPathComponent("css/big.css"), atomically: true, encoding: .utf8)
            try "blob".write(to: publicFolder.appendingPathComponent("data.unknownext"), atomically: true, encoding: .utf8)
            try "TOP-SECRET".write(to: publicFolder.appendingPathComponent(".hidden"), atomically: true, encoding: .utf8)
            try "console.log('plain')".write(to: publicFolder.appendingPathComponent("app.js"), atomically: true, encoding: .utf8)
            try Data([0x1f, 0x8b, 0x08, 0x00, 0x01, 0x02]).write(to: publicFolder.appendingPathComponent("app.js.gz"))
            try fm.createSymbolicLink(atPath: publicFolder.appendingPathComponent("link-out.txt").path, withDestinationPath: "../secret.txt")
            try fm.createSymbolicLink(atPath: publicFolder.appendingPathComponent("dir-out").path, withDestinationPath: "../outside")
            try fm.createSymbolicLink(atPath: publicFolder.appendingPathComponent("link-in.txt").path, withDestinationPath: "digits.txt")
        }

        func remove() { try? FileManager.default.removeItem(at: root) }

        static let bigCSS = (1...200).map { ".rule-\($0) { margin: \($0)px; color: #333; }" }.joined(separator: "\n")
    }

    func withSite(_ body: (Site, Int) async throws -> Void) async throws {
        let site = try Site()
        defer { site.remove() }
        let server = try await TestServer.start(responder: PublicFiles(root: site.publicFolder.path))
        try await body(site, server.port)
        try await server.stop()
    }

    @Test func servesFilesWithTypesAndCaching() async throws {
        try await withSite { _, port in
            let css = try await onThread { try RawHTTPClient.request(port: port, "/css/site.css") }
            #expect(css.status == 200)
            #expect(css.text == "body{color:red}")
            #expect(css.header("content-type") == "text/css; charset=utf-8")
            #expect(css.header("cache-control") == "public, max-age=3600")
            #expect(css.header("etag")?.hasPrefix("\"") == true)
            #expect(css.header("last-modified")?.hasSuffix(" GMT") == true)

            let svg = try await onThread { try RawHTTPClient.request(port: port, "/logo.svg") }
            #expect(svg.header("content-type") == "image/svg+xml")
            let unknown = try await onThread { try RawHTTPClient.request(port: port, "/data.unknownext") }
            #expect(unknown.header("content-type") == "application/octet-stream")
            let linkedInside = try await onThread { try RawHTTPClient.request(port: port, "/link-in.txt") }
            #expect(linkedInside.text == "0123456789")

            let head = try await onThread { try RawHTTPClient.request(port: port, "/css/site.css", method: "HEAD") }
            #expect(head.status == 200)
            #expect(head.header("content-length") == "15")
        }
    }

    @Test func nothingOutsidePublicIsReachable() async throws {
        try await withSite { _, port in
            let attempts = [
                "/../secret.txt", "/css/../../secret.txt", "/%2e%2e/secret.txt", "/%2E%2E/secret.txt",
                "/.%2e/secret.txt", "/css/..%2f..%2fsecret.txt", "/..%2fsecret.txt", "/..%5csecret.txt",
                "/css\\..\\..\\secret.txt", "/css%5c..%5c..%5csecret.txt", "/link-out.txt", "/dir-out/secret.txt",
                "//secret.txt", "/%252e%252e/secret.txt", "/secret.txt%00.css", "/.hidden", "/%2ehidden",
                "/css", "/css/", "/", "/etc/passwd", "/outside/secret.txt",
            ]
            for target in attempts {
                let reply = try await onThread { try RawHTTPClient.request(port: port, target) }
                #expect((400..<500).contains(reply.status), "\(target) answered \(reply.status)")
                #expect(!reply.text.contains("TOP-SECRET"), "\(target) leaked the secret")
                #expect(!reply.text.contains("site.css"), "\(target) listed a directory")
            }
            let after = try await onThread { try RawHTTPClient.request(port: port, "/digits.txt") }
            #expect(after.status == 200)
        }
    }

    @Test func conditionalRequestsGive304() async throws {
        try await withSite { _, port in
            let first = try await onThread { try RawHTTPClient.request(port: port, "/digits.txt") }
            let eTag = try #require(first.header("etag"))
            let lastModified = try #require(first.header("last-modified"))

            for headers in [
                ["If-None-Match": eTag], ["If-None-Match": "\"nope\", \(eTag)"], ["If-None-Match": "W/\(eTag)"], ["If-Modified-Since": lastModified],
            ] {
                let reply = try await onThread { try RawHTTPClient.request(port: port, "/digits.txt", headers: headers) }
                #expect(reply.status == 304, "\(headers)")
                #expect(reply.header("etag") == eTag)
                #expect(reply.body.isEmpty)
            }
            let stale = try await onThread { try RawHTTPClient.request(port: port, "/digits.txt", headers: ["If-None-Match": "\"other\""]) }
            #expect(stale.status == 200)
            let older = try await onThread {
                try RawHTTPClient.request(port: port, "/digits.txt", headers: ["If-Modified-Since": "Sun, 06 Nov 1994 08:49:37 GMT"])
            }
            #expect(older.status == 200)
            let garbage = try await onThread { try RawHTTPClient.request(port: port, "/digits.txt", headers: ["If-Modified-Since": "yesterday"]) }
            #expect(garbage.status == 200)
        }
    }

    @Test func rangesGive206Or416() async throws {
        try await withSite { _, port in
            let cases: [(String, Int, String, String?)] = [
                ("bytes=0-3", 206, "0123", "bytes 0-3/10"),
                ("bytes=7-", 206, "789", "bytes 7-9/10"),
                ("bytes=-2", 206, "89", "bytes 8-9/10"),
                ("bytes=5-100", 206, "56789", "bytes 5-9/10"),
                ("bytes=0-1,4-5", 200, "0123456789", nil),
                ("items=0-1", 200, "0123456789", nil),
                ("bytes=10-20", 416, "", "bytes */10"),
                ("bytes=-0", 416, "", "bytes */10"),
            ]
            for (range, status, body, contentRange) in cases {
                let reply = try await onThread { try RawHTTPClient.request(port: port, "/digits.txt", headers: ["Range": range]) }
                #expect(reply.status == status, "\(range)")
                #expect(reply.text == body, "\(range)")
                #expect(reply.header("content-range") == contentRange, "\(range)")
            }
            let stale = try await onThread {
                try RawHTTPClient.request(port: port, "/digits.txt", headers: ["Range": "bytes=0-1", "If-Range": "\"old\""])
            }
            #expect(stale.status == 200)
        }
    }

    @Test func precompressedGzipWhenAccepted() async throws {
        try await withSite { _, port in
            let gzipped = try await onThread { try RawHTTPClient.request(port: port, "/app.js", headers: ["Accept-Encoding": "br, gzip"]) }
            #expect(gzipped.header("content-encoding") == "gzip")
            #expect(gzipped.body == [0x1f, 0x8b, 0x08, 0x00, 0x01, 0x02])
            #expect(gzipped.header("vary") == "Accept-Encoding")
            #expect(gzipped.header("content-type") == "text/javascript; charset=utf-8")

            for acceptEncoding in [nil, "br", "gzip;q=0"] as [String?] {
                let plain = try await onThread {
                    try RawHTTPClient.request(port: port, "/app.js", headers: acceptEncoding.map { ["Accept-Encoding": $0] } ?? [:])
                }
                #expect(plain.header("content-encoding") == nil)
                #expect(plain.text == "console.log('plain')")
                #expect(plain.header("vary") == "Accept-Encoding")
                #expect(plain.header("etag") != gzipped.header("etag"))
            }
        }
    }

    @Test func textWithoutASiblingIsGzippedFromTheCopyMadeAtStart() async throws {
        try await withSite { _, port in
            let plain = try await onThread { try RawHTTPClient.request(port: port, "/css/big.css") }
            let gzipped = try await onThread { try RawHTTPClient.request(port: port, "/css/big.css", headers: ["Accept-Encoding": "gzip"]) }
            #expect(plain.header("content-encoding") == nil)
            #expect(plain.header("vary") == "Accept-Encoding")
            #expect(gzipped.header("content-encoding") == "gzip")
            #expect(gzipped.body.count < plain.body.count / 4)
            #expect(gzipped.decodedText == Site.bigCSS)
            let eTag = try #require(gzipped.header("etag"))
            #expect(eTag != plain.header("etag"), "another representation, another validator")
            let revalidated = try await onThread {
                try RawHTTPClient.request(port: port, "/css/big.css", headers: ["Accept-Encoding": "gzip", "If-None-Match": eTag])
            }
            #expect(revalidated.status == 304)
            // Too short to gain anything: sent as it is.
            let tiny = try await onThread { try RawHTTPClient.request(port: port, "/logo.svg", headers: ["Accept-Encoding": "gzip"]) }
            #expect(tiny.header("content-encoding") == nil)
        }
    }

    @Test func fingerprintedURLsAreCachedForAYearAndOldOnesStillWork() async throws {
        let site = try Site()
        defer { site.remove() }
        let files = PublicFiles(root: site.publicFolder.path)
        let url = files.assetURLs.url(for: "/css/site.css")
        #expect(url.wholeMatch(of: /\/css\/site\.[0-9a-f]{10}\.css/) != nil, "\(url)")
        #expect(files.assetURLs.url(for: "/css/big.css") != url.replacingOccurrences(of: "site", with: "big"), "each file its own hash")
        #expect(files.assetURLs.url(for: "/.hidden") == "/.hidden", "hidden files are not indexed")

        let server = try await TestServer.start(responder: files)
        let port = server.port
        let fingerprinted = try await onThread { try RawHTTPClient.request(port: port, url) }
        #expect(fingerprinted.status == 200)
        #expect(fingerprinted.text == "body{color:red}")
        #expect(fingerprinted.header("cache-control") == PublicFiles.fingerprintedCacheControl)
        #expect(fingerprinted.header("content-type") == "text/css; charset=utf-8")

        // A page cached from before a deploy asks for an old hash: it gets today's file, briefly cached.
        let old = try await onThread { try RawHTTPClient.request(port: port, "/css/site.0123456789.css") }
        #expect(old.status == 200)
        #expect(old.header("cache-control") == "public, max-age=3600")
        #expect(try await onThread { try RawHTTPClient.request(port: port, "/css/site.012345678.css") }.status == 404, "not a fingerprint")

        // Edited while running: never served as immutable under the old name; a restart names it anew.
        try "body{color:blue}".write(to: site.publicFolder.appendingPathComponent("css/site.css"), atomically: true, encoding: .utf8)
        let edited = try await onThread { try RawHTTPClient.request(port: port, url) }
        #expect(edited.text == "body{color:blue}")
        #expect(edited.header("cache-control") == "public, max-age=3600")
        #expect(PublicFiles(root: site.publicFolder.path).assetURLs.url(for: "/css/site.css") != url)
        try await server.stop()
    }

    /// Small files are answered from the copy read at start while `stat` finds them unchanged;
    /// any change, even one that keeps the size within the same second, or a symlink put in a
    /// file's place, is answered from disk by the usual rules.
    @Test func keptFilesFollowEveryChangeOnDisk() async throws {
        try await withSite { site, port in
            let digits = site.publicFolder.appendingPathComponent("digits.txt")
            let first = try await onThread { try RawHTTPClient.request(port: port, "/digits.txt") }
            #expect(first.text == "0123456789")
            let validator = try #require(first.header("etag"))
            let notModified = try await onThread { try RawHTTPClient.request(port: port, "/digits.txt", headers: ["If-None-Match": validator]) }
            #expect(notModified.status == 304)

            // The same size, in place (same inode), at once: only the nanoseconds tell.
            let handle = try FileHandle(forWritingTo: digits)
            try handle.write(contentsOf: Data("9876543210".utf8))
            try handle.close()
            let edited = try await onThread { try RawHTTPClient.request(port: port, "/digits.txt") }
            #expect(edited.text == "9876543210")

            // A symlink out of the folder in the file's place: refused, as from disk.
            try FileManager.default.removeItem(at: digits)
            try FileManager.default.createSymbolicLink(atPath: digits.path, withDestinationPath: "../secret.txt")
            let swapped = try await onThread { try RawHTTPClient.request(port: port, "/digits.txt") }
            #expect(swapped.status == 404)
            #expect(!swapped.text.contains("TOP-SECRET"))
        }
    }
}
