import Testing

@testable import Tessera

/// What a form keeps of a value a visitor typed or pasted.
@Suite struct FormReaderTests {
    static func reader(_ fields: [(String, String)]) -> FormReader {
        FormReader(FormData(fields: QueryParameters(fields.map { .init(name: $0.0, value: $0.1) })))
    }

    @Test func aOneLineFieldLosesItsControlCharactersAndAFieldOfLinesKeepsItsBreaks() {
        var form = Self.reader([("name", " Ada\tLove\u{7}lace\r\nBcc: x\u{0}\u{85} "), ("review", "Good.\r\nWould buy\tagain.\u{1B}[31m\rEnd")])
        #expect(form.text("name") == "AdaLovelaceBcc: x")
        #expect(form.text("review", multiline: true) == "Good.\nWould buy\tagain.[31m\nEnd")
        #expect(form.errors.isEmpty)
        var empty = Self.reader([("name", "\u{7}\u{8}\t")])
        _ = empty.text("name")
        #expect(empty.errors["name"] != nil, "only control characters is empty")
    }
}
