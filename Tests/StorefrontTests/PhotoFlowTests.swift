import Foundation
import TesseraTesting
import Testing

/// Product photos on a real storefront: `storefront seed` adds the demo products' photos (the
/// server draws none); staff upload one on `/admin/products`; the product page shows it as a `<picture>` with
/// WebP and JPEG `srcset`s; its variants are immutable files without the EXIF the upload had.
/// What is not a whole image of a sane size gets a 4xx page, and nothing is stored.
@Suite(.serialized) struct PhotoFlowTests {
    /// Posts `bytes` as the `photo` field of the admin's photo form for `productID`.
    static func upload(_ bytes: [UInt8], named fileName: String, to productID: Int, as staff: TestClient) async throws -> TestResponse {
        let form = TestImages.multipart(field: "photo", fileName: fileName, contentType: "image/jpeg", bytes: bytes)
        var headers = [("Content-Type", form.contentType), ("Accept", "text/html")]
        if let cookie = staff.cookie { headers.append(("Cookie", cookie)) }
        return try await staff.transport.execute(method: "POST", target: "/admin/products/\(productID)/photos", headers: headers, body: form.body)
    }

    /// Every photo URL on the page, in order, once each.
    static func photoURLs(_ page: TestResponse) -> [String] {
        let urls = page.text.matches(of: /\/photos\/[0-9a-f]{16}-[0-9]+\.(?:jpg|webp)/).map { String($0.output) }
        return urls.reduce(into: []) { if !$0.contains($1) { $0.append($1) } }
    }

    @Test func theSeedAddsEveryDemoPhotoAndTheServerDrawsNone() async throws {
        // Without the seed command, the demo shop has no photos, and asking for one draws nothing.
        try await TestStorefront.run { shop in
            let visitor = TestClient(port: shop.port)
            let detail = try await visitor.send("/products/7/detail")
            #expect(detail.status == 200 && Self.photoURLs(detail).isEmpty)
            let folder = shop.dataDirectory.appendingPathComponent("photos")
            #expect(((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).isEmpty, "the server drew a photo")
        }
        try await TestStorefront.run(seeded: true) { shop in
            // Looked at before any request: six variants (three widths, WebP and JPEG) of each of
            // the 40 demo products' photos are files already.
            let folder = shop.dataDirectory.appendingPathComponent("photos")
            let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            #expect(files.count == 240, "\(files.count) variants")
            let visitor = TestClient(port: shop.port)
            let urls = Self.photoURLs(try await visitor.send("/products/7/detail"))
            #expect(urls.count == 6, "\(urls)")
            for url in urls {
                let variant = try await visitor.send(url)
                let file = try #require(
                    FileManager.default.contents(atPath: folder.appendingPathComponent(String(url.dropFirst("/photos/".count))).path))
                #expect(variant.status == 200 && variant.body == Array(file), "\(url) is the file the seed drew")
                #expect(variant.header("cache-control") == "public, max-age=31536000, immutable")
            }
            // Exactly one spelling serves a photo: extra separators and needless escapes are a 404,
            // not an alias a cache would keep for good; dot segments and an encoded slash are
            // refused before routing (400).
            let url = try #require(urls.first { $0.hasSuffix("-640.webp") })
            let name = url.dropFirst("/photos/".count)
            let escapedFirst = "%" + String(name.utf8.first!, radix: 16)
            for (alias, status) in [
                ("/photos//\(name)", 404), ("//photos/\(name)", 404), ("/photos/\(name)/", 404), ("/photos/\(name)//", 404),
                ("/photos/\(name.replacingOccurrences(of: "-", with: "--"))", 404), ("/photos/-\(name)", 404),
                ("/photos/\(name.replacingOccurrences(of: ".", with: ".."))", 404), ("/photos/\(name).", 404),
                ("/photos/\(escapedFirst)\(name.dropFirst())", 404), ("/ph%6Ftos/\(name)", 404),
                ("/photos/./\(name)", 400), ("/photos/%2F\(name)", 400),
            ] {
                let reply = try await onThread { [port = shop.port] in try RawHTTPClient.request(port: port, alias) }
                #expect(reply.status == status, "\(alias)")
                #expect(reply.header("cache-control")?.contains("immutable") != true, "\(alias)")
            }
        }
    }

    @Test func staffUploadAPhotoAndTheProductPageShowsItWithoutItsMetadata() async throws {
        try await TestStorefront.run(seeded: true) { shop in
            let visitor = TestClient(port: shop.port)
            // The demo photo the seed added.
            let before = try await visitor.send("/products/3/detail")
            #expect(before.text.contains("<picture data-photo>"))
            let demo = try #require(Self.photoURLs(before).first { $0.hasSuffix("-640.jpg") })
            let drawn = try await visitor.send(demo)
            #expect(drawn.status == 200)
            #expect(drawn.header("content-type") == "image/jpeg")
            #expect(drawn.header("cache-control") == "public, max-age=31536000, immutable")

            let staff = TestClient(port: shop.port)
            #expect(try await staff.submit(from: "/login", to: "/login", form: "email=sam%40example.com&password=sam-staff-2026").status == 303)
            let large = try await visitor.send(try #require(Self.photoURLs(before).first { $0.hasSuffix("-1280.jpg") }))
            let photo = TestImages.withEXIF(large.body, description: "SECRET-PLACE-52.5163N")
            let added = try await Self.upload(photo, named: "../../etc/lamp.jpg", to: 3, as: staff)
            #expect(added.status == 303)

            let after = try await visitor.send("/products/3")
            let urls = Self.photoURLs(try await visitor.send("/products/3/detail"))
            #expect(urls.count == 6, "three widths, WebP and JPEG: \(urls)")
            #expect(!urls.contains(demo), "the newest photo leads")
            let name = try #require(after.text.firstMatch(of: /<h1 itemprop="name">([^<]+)<\/h1>/)?.1)
            #expect(after.text.contains(#"alt="\#(name)" width="640" height="480""#), "the product page's photo is named after the product")
            #expect(after.text.contains(#"sizes="(max-width: 700px) calc(100vw - 2rem), 480px""#))
            #expect(after.text.contains(#"width="640" height="480""#))
            for url in urls {
                let variant = try await visitor.send(url)
                #expect(variant.status == 200, "\(url)")
                #expect(variant.body.firstRange(of: Array("SECRET-PLACE".utf8)) == nil, "\(url) keeps the EXIF description")
                #expect(variant.body.firstRange(of: [0x25, 0x88, 0x04, 0x00]) == nil, "\(url) keeps a GPS position")
            }
            #expect(try await visitor.send("/photos/0123456789abcdef-640.webp").status == 404)
            #expect([400, 404].contains(try await visitor.send("/photos/..%2F..%2Fetc%2Fpasswd").status))
        }
    }

    @Test func whatIsNotAWholeImageOfASaneSizeIsA4xxPageAndNothingIsStored() async throws {
        try await TestStorefront.run(seeded: true) { shop in
            let staff = TestClient(port: shop.port)
            #expect(try await staff.submit(from: "/login", to: "/login", form: "email=sam%40example.com&password=sam-staff-2026").status == 303)
            let visitor = TestClient(port: shop.port)
            let photos = Self.photoURLs(try await visitor.send("/products/5/detail"))
            let jpeg = try await visitor.send(try #require(photos.first { $0.hasSuffix("-1280.jpg") })).body
            for (name, bytes, status, message) in [
                ("notes.jpg", Array("<?php system($_GET['c']); ?>".utf8), 415, "That file is not a photo."),
                ("bomb.png", TestImages.pngHeader(width: 30_000, height: 30_000), 422, "30000 × 30000 pixels"),
                ("cut.jpg", Array(jpeg.prefix(jpeg.count / 2)), 422, "That image is damaged or incomplete."),
                ("empty.jpg", [], 422, "Choose a photo to upload."),
            ] as [(String, [UInt8], Int, String)] {
                let reply = try await Self.upload(bytes, named: name, to: 5, as: staff)
                #expect(reply.status == status, "\(name)")
                #expect(reply.header("content-type")?.hasPrefix("text/html") == true, "\(name): a page")
                #expect(reply.text.contains(message), "\(name): \(reply.text.prefix(300))")
            }
            // Over the upload limit, sent whole as a browser sends it: refused from its length,
            // the body read and dropped, and the 413 page arrives rather than a reset.
            let (huge, sentWhole) = try await onThread { [port = shop.port, cookie = staff.cookie ?? ""] in
                let client = try RawHTTPClient(port: port, timeout: 30)
                try client.send(
                    "POST /admin/products/5/photos HTTP/1.1\r\nHost: localhost\r\nAccept: text/html\r\nCookie: \(cookie)\r\nContent-Type: multipart/form-data; boundary=x\r\nContent-Length: \(50 * 1024 * 1024)\r\n\r\n"
                )
                let whole = client.sendUnlessRefused(repeating: 0x2D, count: 50 * 1024 * 1024)
                return (try client.readReply(), whole)
            }
            #expect(sentWhole)
            #expect(huge.status == 413)
            #expect(huge.text.contains("The upload is larger than 25 MB"))
            #expect(Self.photoURLs(try await visitor.send("/products/5/detail")) == photos, "nothing was stored")
            // A shopper is not staff: the form's address does not exist for them.
            let shopper = TestClient(port: shop.port)
            #expect(try await shopper.submit(from: "/login", to: "/login", form: "email=ada%40example.com&password=ada-lovelace-1815").status == 303)
            #expect(try await Self.upload(jpeg, named: "a.jpg", to: 5, as: shopper).status == 404)
        }
    }
}
