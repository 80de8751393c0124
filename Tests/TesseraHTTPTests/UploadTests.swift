import Foundation
import Synchronization
import TesseraTesting
import Testing

@testable import TesseraHTTP

/// Large uploads are written to disk as they arrive, not held in memory: a `multipart/form-data`
/// body over `maxBodyBytes` is spooled, its files stay in spooled files, and memory stays flat
/// while many arrive at once. Over `maxUploadBytes` it is a 413, and the handler never runs.
@Suite(.serialized) struct UploadTests {
    static let boundary = "tessera-upload-test"

    /// A multipart body: a text field, then each file.
    static func body(fields: [(String, String)] = [("title", "Lamp ☀")], files: [(String, [UInt8])]) -> [UInt8] {
        var body: [UInt8] = []
        for (name, value) in fields {
            body += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n".utf8)
        }
        for (name, bytes) in files {
            body += Array(
                "--\(boundary)\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"\(name)\"\r\nContent-Type: image/jpeg\r\n\r\n".utf8)
            body += bytes + Array("\r\n".utf8)
        }
        return body + Array("--\(boundary)--\r\n".utf8)
    }

    /// Bytes that look like the end of a part but are not: the parser must not cut there.
    static let tricky = Array("\r\n--tessera-upload-tes\r\n-\r\n--tessera-upload-te\r".utf8)

    /// A `;` inside a quoted parameter is part of it, and a quoted string's escapes are undone:
    /// a file named `a;b.jpg` keeps its name (it lost `;b.jpg` before).
    @Test func aQuotedParameterKeepsItsSemicolonsAndEscapes() throws {
        let header = MediaTypeHeader(#"form-data; name="photo"; filename="a;b \"c\".jpg"; size=3"#)
        #expect(header.essence == "form-data")
        #expect(header.parameters["name"] == "photo")
        #expect(header.parameters["filename"] == #"a;b "c".jpg"#)
        #expect(header.parameters["size"] == "3")
        let parsed = try MultipartParser(boundary: Self.boundary).parse(.memory(Self.body(files: [("a;b.jpg", [1, 2, 3])])))
        #expect(parsed.files.map(\.clientFileName) == ["a;b.jpg"])
        #expect(MediaTypeHeader("text/plain; charset=\"utf-8").parameters["charset"] == "\"utf-8", "an unclosed quote is kept as sent")
    }

    /// The path a library is handed opens the file read-only: its mode is the owner's read
    /// alone, while the server's own descriptor goes on writing.
    @Test func aSpooledFilesPathIsReadOnly() throws {
        let spooled = try SpooledFile()
        try spooled.append(Array("before".utf8))
        var status = stat()
        #expect(stat(spooled.path, &status) == 0)
        #expect(status.st_mode & 0o777 == 0o400, "mode \(String(status.st_mode & 0o777, radix: 8))")
        try spooled.append(Array(" and after".utf8))
        #expect(try spooled.read(at: 0, count: 100) == Array("before and after".utf8))
    }

    @Test func aSpooledBodyParsesAsTheSameBodyInMemoryWhateverThePieces() throws {
        let first = (0..<5000).map { UInt8(truncatingIfNeeded: $0 * 7) } + Self.tricky
        let body = Self.body(files: [("a.jpg", first), ("empty.jpg", []), ("b.jpg", Self.tricky + [1, 2, 3])])
        let spooled = try SpooledFile()
        try spooled.append(body)
        let inMemory = try MultipartParser(boundary: Self.boundary).parse(.memory(body))
        for pieceSize in [1, 7, 64, 4096] {
            var parser = MultipartParser(boundary: Self.boundary)
            parser.pieceSize = pieceSize
            let parsed = try parser.parse(.spooled(spooled))
            #expect(parsed["title"] == "Lamp ☀")
            #expect(parsed.files.map(\.clientFileName) == ["a.jpg", "empty.jpg", "b.jpg"])
            for (file, expected) in zip(parsed.files, inMemory.files) {
                guard case .spooled = file.contents else {
                    Issue.record("a file of a spooled body is in memory")
                    continue
                }
                #expect(try file.bytes() == expected.bytes(), "pieces of \(pieceSize)")
            }
        }
        #expect(try inMemory.files[0].bytes() == first)
        #expect(try inMemory.files[2].bytes() == Self.tricky + [1, 2, 3])
    }

    /// The delimiter search, against the obvious one, where near-misses and slices are likeliest to go wrong.
    @Test func theDelimiterIsFoundWhereANaiveSearchFindsIt() {
        let pattern = Array("\r\n--ab".utf8)
        let bytes = Array("x\r\n--a\r\r\n--ab\r\n--ab".utf8)
        func naive(_ slice: ArraySlice<UInt8>) -> Int? {
            slice.indices.first { slice[$0...].starts(with: pattern) }
        }
        for start in 0...bytes.count {
            for end in start...bytes.count {
                let slice = bytes[start..<end]
                #expect(MultipartParser.Reader.firstIndex(of: pattern, in: slice) == naive(slice), "\(start)..<\(end)")
            }
        }
    }

    @Test func aFormOfManyFilesOrLargeFieldsIsA413() throws {
        let manyFiles = Self.body(files: (0..<17).map { ("\($0).jpg", [1, 2, 3]) })
        let fields = Self.body(fields: (0..<3).map { ("note\($0)", String(repeating: "x", count: 400_000)) }, files: [])
        for body in [manyFiles, fields] {
            let spooled = try SpooledFile()
            try spooled.append(body)
            let error = #expect(throws: HTTPError.self) {
                try FormData(body: .spooled(spooled), contentType: "multipart/form-data; boundary=\(Self.boundary)")
            }
            #expect(error?.status == .contentTooLarge)
        }
    }

    @Test func aSpooledBodyIsParsedOnceHoweverOftenItsFormIsRead() throws {
        let spooled = try SpooledFile()
        try spooled.append(Self.body(files: [("a.jpg", [1, 2, 3])]))
        let request = Request(
            method: .post, path: "/upload", headers: [.contentType: "multipart/form-data; boundary=\(Self.boundary)"], body: .spooled(spooled))
        guard case .spooled(let first) = try request.form().files[0].contents, case .spooled(let second) = try request.form().files[0].contents else {
            Issue.record("not spooled")
            return
        }
        #expect(first === second, "the same spooled file, not a second copy")
    }

    @Test func aSpooledBodyThatIsCutShortIsA400() throws {
        let body = Self.body(files: [("a.jpg", [UInt8](repeating: 9, count: 10_000))])
        let spooled = try SpooledFile()
        try spooled.append(body.prefix(8_000))
        #expect(throws: HTTPError.self) { try FormData(body: .spooled(spooled), contentType: "multipart/form-data; boundary=\(Self.boundary)") }
    }

    /// The resident memory of this process, from /proc.
    static func residentBytes() -> Int {
        let fields = (try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8))?.split(separator: " ") ?? []
        return (fields.count > 1 ? Int(fields[1]) ?? 0 : 0) * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    @Test func tenTwentyMegabyteUploadsAtOnceKeepMemoryFlat() async throws {
        // 20 MB made of a patterned megabyte: the handler compares each piece with memcmp, so a
        // debug build on a busy machine spends its time on the uploads, not on per-byte loops
        // (which took past the client's minute while other suites ran).
        let fileSize = 20 * 1024 * 1024
        let megabyte = (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 11) }
        var pattern: [UInt8] = []
        pattern.reserveCapacity(fileSize)
        for _ in 0..<20 { pattern.append(contentsOf: megabyte) }
        let photo = pattern
        let body = Self.body(files: [("photo.jpg", photo)])
        // Time limits out of the way: on a machine busy with other suites, a connection can wait
        // past a public site's 15 s idle or 20 s head limit before its upload moves, and 200 MB
        // can take longer than 30 s to arrive. This test is about memory.
        let limits = HTTPServerLimits(
            idleTimeout: .seconds(300), headTimeout: .seconds(300), bodyReadTimeout: .seconds(300),
            responseTimeout: .seconds(300), maxUploadBytes: 25 * 1024 * 1024)
        let server = try await TestServer.start(
            threads: 4, limits: limits,
            responder: ClosureResponder { request in
                guard case .spooled = request.body else { return .text("not spooled", status: .internalServerError) }
                guard let file = try request.form().file("photo"), case .spooled(let spooled) = file.contents else {
                    return .text("no spooled file", status: .badRequest)
                }
                var offset = 0
                while offset < spooled.size {
                    let piece = try spooled.read(at: offset, count: 1 << 16)
                    let same =
                        piece.count <= photo.count - offset
                        && piece.withUnsafeBytes { received in
                            photo.withUnsafeBytes { sent in memcmp(received.baseAddress!, sent.baseAddress! + offset, received.count) == 0 }
                        }
                    guard same else { return .text("differs at byte \(offset)", status: .internalServerError) }
                    offset += piece.count
                }
                return .text("\(file.size) intact")
            })
        let baseline = Self.residentBytes()
        let peak = Atomic<Int>(baseline)
        let sampling = Task.detached {
            while !Task.isCancelled {
                let now = Self.residentBytes()
                _ = peak.max(now, ordering: .relaxed)
                try? await Task.sleep(for: .milliseconds(5))
            }
        }
        let port = server.port
        let replies = try await withThrowingTaskGroup(of: TestResponse.self) { group in
            for _ in 0..<10 {
                group.addTask {
                    try await onThread {
                        let client = try RawHTTPClient(port: port, timeout: 60)
                        try client.send(
                            "POST /upload HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nContent-Type: multipart/form-data; boundary=\(Self.boundary)\r\nContent-Length: \(body.count)\r\n\r\n"
                        )
                        var offset = 0
                        while offset < body.count {
                            try client.send(Array(body[offset..<min(offset + 256 * 1024, body.count)]))
                            offset += 256 * 1024
                        }
                        return try client.readReply()
                    }
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        sampling.cancel()
        for reply in replies {
            #expect(reply.status == 200)
            #expect(reply.text == "\(fileSize) intact")
        }
        let growth = peak.load(ordering: .relaxed) - baseline
        // Held in memory, ten bodies would be 200 MB (and their parsed files as much again).
        #expect(growth < 40 * 1024 * 1024, "memory grew by \(growth / 1024 / 1024) MB during ten 20 MB uploads")
        print("ten 20 MB uploads at once: resident memory grew by \(growth / 1024 / 1024) MB")
        try await server.stop()
    }

    @Test func anUploadOverTheLimitIsA413PageAndTheHandlerNeverRuns() async throws {
        let calls = Atomic<Int>(0)
        let server = try await TestServer.start(limits: HTTPServerLimits(maxUploadBytes: 25 * 1024 * 1024)) { _ in
            calls.add(1, ordering: .relaxed)
            return .text("stored")
        }
        let port = server.port
        let head = "POST /upload HTTP/1.1\r\nHost: localhost\r\nAccept: text/html\r\nContent-Type: multipart/form-data; boundary=\(Self.boundary)\r\n"
        // A client that waits for 100 Continue is refused from its Content-Length, before it sends a byte.
        let declared = try await onThread {
            let client = try RawHTTPClient(port: port, timeout: 10)
            try client.send(head + "Expect: 100-continue\r\nContent-Length: \(50 * 1024 * 1024)\r\n\r\n")
            return try client.readReply()
        }
        #expect(declared.status == 413)
        #expect(declared.header("content-type")?.hasPrefix("text/html") == true)
        #expect(declared.text.contains("The upload is larger than 25 MB"))
        // A browser sends the whole body before it reads: the server reads it and drops it, so
        // the 413 page arrives, not a reset.
        let sentWhole = try await onThread {
            let client = try RawHTTPClient(port: port, timeout: 30)
            try client.send(head + "Content-Length: \(50 * 1024 * 1024)\r\n\r\n")
            let whole = client.sendUnlessRefused(repeating: 65, count: 50 * 1024 * 1024)
            return (whole, try client.readReply())
        }
        #expect(sentWhole.0, "the server read the whole body before it answered")
        #expect(sentWhole.1.status == 413)
        #expect(sentWhole.1.text.contains("The upload is larger than 25 MB"))
        // Chunked, so only counting can tell: refused once it passes the limit.
        let counted = try await onThread {
            let client = try RawHTTPClient(port: port, timeout: 30)
            try client.send(
                "POST /upload HTTP/1.1\r\nHost: localhost\r\nContent-Type: multipart/form-data; boundary=\(Self.boundary)\r\nTransfer-Encoding: chunked\r\n\r\n"
            )
            // One chunk, sent 30 times: a debug build takes seconds to flatten 30 MB into one
            // array, and a client that slow meets the server's idle timeout, not its limit.
            let chunk = Array("100000\r\n".utf8) + [UInt8](repeating: 65, count: 1024 * 1024) + Array("\r\n".utf8)
            let whole = (0..<30).allSatisfy { _ in client.sendUnlessRefused(chunk) } && client.sendUnlessRefused(Array("0\r\n\r\n".utf8))
            return (whole, try client.readReply())
        }
        #expect(counted.0, "the server read the whole body before it answered")
        #expect(counted.1.status == 413)
        // An ordinary form is still held to the in-memory limit, and its body is read before the answer too.
        let form = try await onThread {
            let client = try RawHTTPClient(port: port, timeout: 30)
            try client.send(
                "POST /form HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: \(2 * 1024 * 1024)\r\n\r\n"
            )
            let whole = client.sendUnlessRefused([UInt8](repeating: 97, count: 2 * 1024 * 1024))
            return (whole, try client.readReply())
        }
        #expect(form.0, "the server read the whole body before it answered")
        #expect(form.1.status == 413)
        #expect(calls.load(ordering: .relaxed) == 0, "nothing was stored")
        #expect(try await server.assertServing().status == 200)
        try await server.stop()
    }
}
