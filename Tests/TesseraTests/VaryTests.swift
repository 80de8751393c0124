import HTTPTypes
import TesseraHTTP
import Testing

@testable import Tessera

/// `Vary` as several steps build it (compression, the language), and which answers are pages.
@Suite struct VaryTests {
    @Test func namesAreAddedOnceWhateverTheirCaseOrSpacing() {
        var fields: HTTPFields = [:]
        fields.addVary("Accept-Language, Cookie")
        #expect(fields[.vary] == "Accept-Language, Cookie")
        fields.addVary("Accept-Encoding")
        #expect(fields[.vary] == "Accept-Language, Cookie, Accept-Encoding")
        fields.addVary("cookie, ACCEPT-ENCODING")
        #expect(fields[.vary] == "Accept-Language, Cookie, Accept-Encoding", "already there, in another case")

        var spaced: HTTPFields = [.vary: " Origin ,\tCookie,"]
        spaced.addVary("Cookie, Origin, Accept-Language")
        #expect(spaced[.vary] == "Origin ,\tCookie,, Accept-Language", "HTTPField trims the value itself")

        var repeated = HTTPFields()
        repeated.append(HTTPField(name: .vary, value: "Origin"))
        repeated.append(HTTPField(name: .vary, value: "Cookie"))
        repeated.addVary("Cookie, Accept-Encoding")
        #expect(repeated[values: .vary] == ["Origin, Accept-Encoding", "Cookie"], "a name in a later field counts too")

        var everything: HTTPFields = [.vary: "*"]
        everything.addVary("Cookie")
        #expect(everything[.vary] == "*", "`*` already says it all")

        var prefix: HTTPFields = [.vary: "Accept-Language-X"]
        prefix.addVary("Accept-Language")
        #expect(prefix[.vary] == "Accept-Language-X, Accept-Language", "a longer name is another name")
    }

    @Test func onlyHTMLAnswersArePages() {
        #expect(Response.html([]).isHTML)
        #expect(!Response.text("ok").isHTML)
        #expect(!Response(headers: [.contentType: "application/xhtml+xml"]).isHTML)
        #expect(Response(headers: [.contentType: "text/html"]).isHTML)
        #expect(!Response().isHTML, "no Content-Type")
    }
}
