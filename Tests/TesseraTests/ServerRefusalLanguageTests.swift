import TesseraViews
import Testing

@testable import Tessera

/// The server names its refusals; the framework's catalog says them. The catalog's English must
/// be what the server says when no framework is in front of it, and German must be German.
@Suite struct ServerRefusalLanguageTests {
    static let every: [ServerRefusal] = [
        .requestLineMalformed, .httpVersionNotSupported, .chunkedBodyMalformed, .methodNotSupported("BREW"), .methodNotSupported(""),
        .urlTooLong(limit: 8192), .headersTooLarge(limit: 8192),
        .headerNameInvalid, .headerValueControlCharacter, .requestLineSpacing, .hostHeader, .transferEncodingRepeated,
        .transferCodingUnsupported, .contentLengthWithTransferEncoding, .contentLengthNotANumber, .contentLengthConflicting,
        .targetNotAPath, .pathNotUTF8, .pathEncodedSlash, .pathNUL, .pathDotSegment, .pathNeedlessEscape, .queryNotUTF8, .tooManyConnections,
        .bodyTooLarge(bytes: 1_048_576), .uploadTooLarge(megabytes: 25), .uploadNotStored, .uploadNotRead, .tooSlow, .shuttingDown,
        .formMediaType, .formNUL, .multipartNoBoundary, .multipartMalformed("a part is not closed"), .multipartTooManyParts,
        .multipartTooManyFiles(max: 8), .multipartTextTooLarge, .fileNameUnusable,
    ]

    @Test(arguments: every)
    func theCatalogSaysWhatTheServerSays(_ refusal: ServerRefusal) {
        #expect(refusal.text.string(in: .english) == refusal.english)
        let german = refusal.text.string(in: Language("de"))
        #expect(!german.isEmpty && german != refusal.english, "\(refusal): \(german)")
        let error = HTTPError(refusal)
        #expect(error.localizedMessage(in: Language("de")) == german)
        #expect(error.publicMessage == refusal.english, "logs and JSON stay English")
    }
}
