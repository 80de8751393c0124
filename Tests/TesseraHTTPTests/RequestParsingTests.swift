import HTTPTypes
import Testing

@testable import TesseraHTTP

/// The parsers behind `Request`, on their own.
@Suite struct RequestParsingTests {
    @Test func targetDecodingAndRefusals() throws {
        let target = try RequestTarget.parse(Array("/a%20b/c+d?x=1&x=2&y=%E2%9C%93&flag".utf8))
        #expect(target.path == "/a b/c+d")
        #expect(target.query.values(for: "x") == ["1", "2"])
        #expect(target.query["y"] == "✓")
        #expect(target.query["flag"] == "")
        #expect(try RequestTarget.parse(Array("/".utf8)).path == "/")
        #expect(try RequestTarget.parse(Array("/a/".utf8)).path == "/a/")
        for bad in ["/a%2fb", "/%00", "/..", "/a/%2E", "/%", "/%4", "noslash", "/%FF"] {
            #expect(throws: HTTPError.self, "\(bad)") { try RequestTarget.parse(Array(bad.utf8)) }
        }
    }

    @Test func cookies() {
        let cookies = Cookies(headerValues: ["a=1; b=\"two\"; ; =skip; noequals", "c=3; a=ignored"])
        #expect(cookies["a"] == "1")
        #expect(cookies["b"] == "two")
        #expect(cookies["c"] == "3")
        #expect(cookies["noequals"] == nil)

        let spaced = Cookies(headerValues: [" \tname = \" quoted value\" \t;\tnext=\"\";x=\"; é=ü; last= 1 "])
        #expect(spaced["name"] == " quoted value", "spaces and tabs around a pair go, those inside quotes stay")
        #expect(spaced["next"] == "", "an empty quoted value")
        #expect(spaced["x"] == "\"", "a lone quote is the value")
        #expect(spaced["é"] == "ü", "UTF-8 names and values")
        #expect(spaced["last"] == "1")
    }

    /// `Request.cookie(_:)` scans for one cookie; it must read each header as the whole parse does.
    @Test func oneCookieIsReadAsTheWholeParseReadsIt() {
        let sets = [
            ["a=1; b=\"two\"; ; =skip; noequals", "c=3; a=ignored"],
            [" \tname = \" quoted value\" \t;\tnext=\"\";x=\"; é=ü; last= 1 "],
            [""], [";;;"], ["=;="],
        ]
        for values in sets {
            var fields = HTTPFields()
            for value in values { fields.append(HTTPField(name: .cookie, value: value)) }
            let request = Request(method: .get, path: "/", headers: RequestHeaders(fields))
            for name in ["a", "b", "c", "noequals", "name", "next", "x", "é", "last", "missing", ""] {
                #expect(request.cookie(name) == request.cookies[name], "\(name) in \(values)")
            }
        }
    }

    @Test func contentLengthRules() {
        #expect(ContentLength.check([], hasTransferEncoding: false) == .absent)
        #expect(ContentLength.check(["12"], hasTransferEncoding: false) == .length(12))
        #expect(ContentLength.check(["12", "12"], hasTransferEncoding: false) == .length(12))
        #expect(ContentLength.check(["12, 12"], hasTransferEncoding: false) == .length(12))
        for conflicting in [["1", "2"], ["1, 2"], ["-1"], ["1e3"], [""], ["99999999999999999999999"]] {
            guard case .invalid = ContentLength.check(conflicting, hasTransferEncoding: false) else {
                Issue.record("accepted \(conflicting)")
                continue
            }
        }
        guard case .invalid = ContentLength.check(["3"], hasTransferEncoding: true) else {
            Issue.record("accepted Content-Length with Transfer-Encoding")
            return
        }
        #expect(ContentLength.check(["1, 2"], hasTransferEncoding: false) == .invalid(.conflicting))
        #expect(ContentLength.check(["+5"], hasTransferEncoding: false) == .invalid(.notANumber), "Int(_:) takes a sign; the header may not")
        #expect(ServerRefusal(.withTransferEncoding) == .contentLengthWithTransferEncoding)
        #expect(TransferEncoding.check([" Chunked "]) == nil)
        #expect(TransferEncoding.check(["chunked", "chunked"]) == .repeated)
        #expect(TransferEncoding.check(["gzip, chunked"]) == .unsupported)
        #expect(ServerRefusal(.unsupported) == .transferCodingUnsupported)
    }

    @Test func acceptHeaderPrefersJSONOnlyWhenAsked() {
        #expect(AcceptHeader("application/json").prefersJSON)
        #expect(AcceptHeader("application/json, text/html;q=0.5").prefersJSON)
        #expect(!AcceptHeader("text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8").prefersJSON)
        #expect(!AcceptHeader(nil).prefersJSON)
        #expect(!AcceptHeader("*/*").prefersJSON)
    }

    @Test func uploadedFileNamesAreMadeSafe() {
        func safe(_ name: String) -> String? {
            UploadedFile(fieldName: "f", clientFileName: name, contentType: nil, bytes: []).safeFileName
        }
        #expect(safe("photo.jpg") == "photo.jpg")
        #expect(safe("../../etc/passwd") == "passwd")
        #expect(safe("C:\\Users\\x\\evil.exe") == "evil.exe")
        #expect(safe(".htaccess") == "htaccess")
        #expect(safe("..") == nil)
        #expect(safe("a\u{0}b\nc") == "abc")
    }

    @Test func requestHeadersLookUpCaseInsensitively() {
        var headers = RequestHeaders()
        headers.append(name: "Content-Type", value: "text/html")
        headers.append(name: "X-A^B", value: "caret")
        headers.append(name: "cookie", value: "a=1")
        headers.append(name: "COOKIE", value: "b=2")
        #expect(headers[.contentType] == "text/html")
        #expect(headers[HTTPField.Name("content-TYPE")!] == "text/html")
        #expect(headers[values: .cookie] == ["a=1", "b=2"])
        #expect(headers[HTTPField.Name("x-a~b")!] == nil, "^ and ~ are different bytes")
        #expect(headers[HTTPField.Name("x-a^b")!] == "caret")
        #expect(headers[.accept] == nil)
        #expect(headers.count == 4)
        #expect(headers.fields[.contentType] == "text/html")
        #expect(headers.map(\.name.rawName) == ["Content-Type", "X-A^B", "cookie", "COOKIE"])
        let literal: RequestHeaders = [.accept: "application/json"]
        #expect(literal[.accept] == "application/json")
    }

    @Test func ipAddressesRoundTrip() {
        #expect(IPAddress("127.0.0.1")?.description == "127.0.0.1")
        #expect(IPAddress("::1")?.description == "::1")
        #expect(IPAddress("2001:db8::42")?.isIPv6 == true)
        #expect(IPAddress("not an address") == nil)
        #expect(IPAddress(bytes: [10, 0, 0, 7])?.description == "10.0.0.7")
    }

    @Test func plainAndEncodedTargetsAgree() throws {
        for target in ["/", "/products/12", "/a//b", "/x./y", "/caf%C3%A9", "/a?b=1", "/file.txt", "/.well-known/x"] {
            let viaString = try RequestTarget.parse(target)
            let viaBytes = try RequestTarget.parse(Array(target.utf8))
            #expect(viaString == viaBytes, "\(target)")
        }
        for bad in ["/.", "/a/..", "/a/./b", "/caf\u{e9}/../x"] {
            #expect(throws: HTTPError.self, "\(bad)") { try RequestTarget.parse(bad) }
        }
    }

    @Test func errorJSONIsJSONThatNoBrowserReadsAsAPage() {
        #expect(ErrorJSON.encode(status: 400, message: "bad \"x\"\n<script>") == #"{"error":{"message":"bad \"x\"\n<script>","status":400}}"#)
        let response = Response.json(HTTPError(.badRequest, message: "bad"))
        #expect(response.headers[.contentType] == "application/json; charset=utf-8")
        #expect(response.headers[.xContentTypeOptions] == "nosniff")
    }
}

/// A form's text fields are text: a NUL anywhere (a name or a value, either encoding) is a 400
/// before any store sees it.
@Suite struct FormTextTests {
    @Test(arguments: [
        ("a=1&name=A%00B", "application/x-www-form-urlencoded"),
        ("na%00me=x", "application/x-www-form-urlencoded"),
        ("--b\r\nContent-Disposition: form-data; name=\"name\"\r\n\r\nA\u{0}B\r\n--b--\r\n", "multipart/form-data; boundary=b"),
    ])
    func aNulInAFieldIsABadRequest(body: String, contentType: String) {
        #expect(throws: HTTPError.self) { try FormData(body: .memory(Array(body.utf8)), contentType: contentType) }
        do {
            _ = try FormData(body: .memory(Array(body.utf8)), contentType: contentType)
        } catch {
            #expect(error.status == .badRequest && error.message.contains("NUL"))
        }
    }

    @Test func otherControlCharactersAndUnicodeStayText() throws {
        let form = try FormData(
            body: .memory(Array("note=line%0Aother%09tab&name=%C3%89lodie".utf8)), contentType: "application/x-www-form-urlencoded")
        #expect(form["note"] == "line\nother\ttab" && form["name"] == "Élodie")
    }
}
