import TesseraViews
import Testing

/// Each payload in each place a value can go, asserted on the exact output.
@Suite struct EscapingTests {
    static let payloads: [(input: String, text: String)] = [
        ("<script>alert(1)</script>", "&lt;script&gt;alert(1)&lt;/script&gt;"),
        ("\"><img src=x onerror=alert(1)>", "&quot;&gt;&lt;img src=x onerror=alert(1)&gt;"),
        ("' onmouseover='alert(1)", "&#39; onmouseover=&#39;alert(1)"),
        ("Tom & Jerry", "Tom &amp; Jerry"),
        ("&amp; already", "&amp;amp; already"),
        ("</p><p>", "&lt;/p&gt;&lt;p&gt;"),
        ("plain text ✓ 日本", "plain text ✓ 日本"),
        ("", ""),
    ]

    @Test func textContent() {
        for (input, escaped) in Self.payloads {
            #expect(EscapeTextView.render(input).string == "<p>\(escaped)</p>\n", "\(input)")
        }
    }

    @Test func quotedAttributes() {
        for (input, escaped) in Self.payloads {
            #expect(EscapeAttributeView.render(input).string == "<p title=\"\(escaped)\" data-x='\(escaped)'></p>\n", "\(input)")
        }
    }

    @Test func urlAttributesRefuseScriptSchemes() {
        let cases: [(String, String)] = [
            ("javascript:alert(1)", "#"),
            ("JavaScript:alert(1)", "#"),
            (" javascript:alert(1)", "#"),
            ("java\tscript:alert(1)", "#"),
            ("java\nscript:alert(1)", "#"),
            ("vbscript:msgbox(1)", "#"),
            ("data:text/html;base64,PHNjcmlwdD4=", "#"),
            ("DATA:text/html,<script>", "#"),
            ("https://example.com/?a=1&b=\"2\"", "https://example.com/?a=1&amp;b=&quot;2&quot;"),
            ("/products/12", "/products/12"),
            ("mailto:shop@example.com", "mailto:shop@example.com"),
            ("./javascript:thing", "./javascript:thing"),
            ("#top", "#top"),
        ]
        for (input, expected) in cases {
            let escapedText = HTMLEscaping.escape(input)
            #expect(
                EscapeUrlView.render(input).string
                    == "<a href=\"\(expected)\">link</a><a href=\"/search?q=\(escapedText)\">search</a>\n",
                "\(input)")
        }
    }

    @Test func scriptInterpolationIsJSONThatCannotCloseTheScript() {
        let output = EscapeScriptView.render(["</script><script>alert(1)</script>", "a&b", "\u{2028}", "\"quoted\""]).string
        #expect(
            output
                == #"<script>const data = ["\u003c/script\u003e\u003cscript\u003ealert(1)\u003c/script\u003e","a\u0026b","\u2028","\"quoted\""];</script>"#
                + "\n")
    }

    @Test func trustedHTMLIsRawOnlyInText() {
        let output = EscapeTrustedView.render(HTML(unsafe: "<b>bold</b>")).string
        #expect(output == "<div><b>bold</b></div><p title=\"&lt;b&gt;bold&lt;/b&gt;\"></p>\n")
    }
}
