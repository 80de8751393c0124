import Foundation
import Tessera
import Testing

@Suite struct EncodingTests {
    @Test func pathSegmentsAndQueryValues() {
        #expect(URLEncoding.pathSegment("a b/c?d&é") == "a%20b%2Fc%3Fd%26%C3%A9")
        #expect(URLEncoding.pathSegment("..") == "%2E%2E", "never a dot segment")
        #expect(URLEncoding.pathSegment("v1.2") == "v1.2")
        #expect(URLEncoding.queryValue("a b&c=d/é") == "a+b%26c%3Dd%2F%C3%A9")
    }

    @Test func base64URLRoundTripsAndRefusesOtherAlphabets() {
        let bytes = Data((0...255).map { UInt8($0) })
        let encoded = Base64URL.encode(bytes)
        #expect(!encoded.contains("+") && !encoded.contains("/") && !encoded.contains("="))
        #expect(Base64URL.decode(Substring(encoded)) == Array(bytes))
        #expect(Base64URL.decode("ab+/") == nil)
        #expect(Base64URL.decode("not base64!") == nil)
        #expect(Base64URL.decode("abcde") == nil, "one character over a group is no byte")
        #expect(Base64URL.decode("") == [])
    }

    @Test func base64URLIsStandardBase64InTheOtherAlphabetForEveryLength() {
        var generator = SystemRandomNumberGenerator()
        for length in 0...40 {
            let bytes = Data((0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) })
            let standard = bytes.base64EncodedString()
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
            #expect(Base64URL.encode(bytes) == standard, "\(length) bytes")
            #expect(Base64URL.decode(Substring(standard)) == Array(bytes), "\(length) bytes back")
            #expect(Base64URL.encode(([0x7F] + Array(bytes)).dropFirst()) == standard, "a slice of \(length) bytes")
        }
    }
}
