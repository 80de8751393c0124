import Crypto
import Foundation
import Testing

@testable import Tessera

/// The session cookie's binary record: what it holds, that none of it can be read from the
/// cookie, and that nothing but an untouched, unexpired record of ours under our secret decodes.
@Suite struct SessionCodecTests {
    let codec = SessionCodec(secret: Data(repeating: 7, count: 32))
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    func payload(_ values: [String: String] = ["userID": "42", "userName": "Ada Lovelace ✓", "cartCount": "3"]) -> SessionRecord {
        SessionRecord(id: SessionCodec.newIdentifier(), expires: 1_800_000_600, values: values)
    }

    /// The cookie as it travels, before base64url: version, nonce, the sealed record, the tag.
    func sealed(_ cookie: String) throws -> [UInt8] {
        try #require(Base64URL.decode(Substring(cookie)))
    }

    /// The record inside `cookie`, opened with the codec's key.
    func record(of cookie: String) throws -> [UInt8] {
        try #require(codec.open(sealed(cookie))?.record)
    }

    /// `record` sealed under the codec's key, as a cookie: what only the secret's holder can make.
    func sealing(_ record: [UInt8]) -> String {
        Base64URL.encode(codec.seal(record))
    }

    @Test func aSessionComesBackAsItWent() throws {
        let sent = payload()
        let cookie = codec.encode(sent)
        #expect(codec.decode(Substring(cookie), now: now)?.record == sent)
        #expect(codec.decode(Substring(cookie), now: now)?.isOlder == false)
        #expect(codec.decode(Substring(codec.encode(payload([:]))), now: now)?.record.values == [:], "no entries at all")
        #expect(cookie.count < 180, "a signed-in session with a cart fits in \(cookie.count) characters")
        #expect(cookie.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }, "cookie-safe")
    }

    @Test func theRecordHasFixedFieldsFirst() throws {
        let sent = payload()
        let bytes = try record(of: codec.encode(sent))
        #expect(Array(bytes[0..<16]) == sent.id)
        #expect(bytes[16..<24].reduce(Int64(0)) { $0 << 8 | Int64($1) } == sent.expires, "big-endian seconds")
        #expect(bytes.count > 24, "the entries follow at once")
        #expect(try sealed(codec.encode(sent))[0] == SessionCodec.version)
    }

    /// Whoever holds the cookie learns nothing from it: no id or value in clear, and the
    /// same session sealed twice gives two unrelated cookies (a fresh nonce each time).
    @Test func theCookieHidesWhatTheSessionKeeps() throws {
        let sent = payload(["userName": "Ada Lovelace", "cartCount": "3"])
        let first = codec.encode(sent), second = codec.encode(sent)
        #expect(first != second)
        #expect(codec.decode(Substring(first), now: now)?.record == codec.decode(Substring(second), now: now)?.record)
        let bytes = try sealed(first)
        func contains(_ needle: [UInt8]) -> Bool {
            bytes.indices.contains { start in bytes[start...].starts(with: needle) }
        }
        let expiry = withUnsafeBytes(of: sent.expires.bigEndian) { Array($0) }
        for secret in [sent.id, expiry, Array("Ada Lovelace".utf8), Array("userName".utf8)] {
            #expect(!contains(secret), "\(secret.prefix(4)) is in the cookie")
        }
    }

    @Test func anyChangedByteIsRefused() throws {
        let bytes = try sealed(codec.encode(payload()))
        for position in bytes.indices {
            var changed = bytes
            changed[position] ^= 0x01
            #expect(codec.decode(Substring(Base64URL.encode(changed)), now: now) == nil, "byte \(position)")
        }
        #expect(codec.decode(Substring(Base64URL.encode(bytes.dropLast())), now: now) == nil, "cut short")
        #expect(codec.decode(Substring(Base64URL.encode(bytes + [0])), now: now) == nil, "longer")
    }

    @Test func anotherSecretAnExpiryAnOlderFormatOrGarbageIsNoSession() throws {
        let cookie = codec.encode(payload())
        #expect(SessionCodec(secret: Data(repeating: 8, count: 32)).decode(Substring(cookie), now: now) == nil)
        #expect(codec.decode(Substring(cookie), now: Date(timeIntervalSince1970: 1_800_000_600)) == nil, "expired")
        #expect(codec.decode("eyJpZCI6ImFiYyJ9.c2lnbmF0dXJl", now: now) == nil, "the JSON format before")
        for garbage in ["", "A", "!!!!", String(repeating: "A", count: 5000)] {
            #expect(codec.decode(Substring(garbage), now: now) == nil, "\(garbage.prefix(8))")
        }
        // The version is authenticated: a cookie of ours relabelled as another version is not read.
        var relabelled = try sealed(cookie)
        relabelled[0] = 1
        #expect(codec.decode(Substring(Base64URL.encode(relabelled)), now: now) == nil)
        // The format before, signed with HMAC-SHA256 but readable by anyone: its holder signs in again.
        let signedRecord = [1] + (try record(of: cookie))
        let signedOnly = Base64URL.encode(signedRecord + HMAC<SHA256>.authenticationCode(for: signedRecord, using: SymmetricKey(data: codec.secret)))
        #expect(codec.decode(Substring(signedOnly), now: now) == nil)
    }

    /// Only the secret's holder can seal a record, but the parser must stay safe whatever the
    /// bytes: entries that overrun the record, empty keys, and text that is not UTF-8.
    @Test func malformedEntriesUnderAValidSealAreRefusedNotTrusted() throws {
        let fixed = try record(of: codec.encode(payload([:])))
        let entries: [[UInt8]] = [
            [5, 0x61],  // a key longer than what is left
            [1, 0x61, 0x00],  // a value length cut short
            [1, 0x61, 0x00, 0x09, 0x62],  // a value longer than what is left
            [0, 0x00, 0x00],  // an empty key
            [1, 0xFF, 0x00, 0x01, 0x62],  // a key that is not UTF-8
            [1, 0x61, 0x00, 0x01, 0xC3],  // a value that is not UTF-8
        ]
        for entry in entries {
            #expect(codec.decode(Substring(sealing(fixed + entry)), now: now) == nil, "\(entry)")
        }
        #expect(codec.decode(Substring(sealing(fixed + [1, 0x61, 0x00, 0x01, 0x62])), now: now)?.record.values == ["a": "b"], "a well-formed entry")
        #expect(codec.decode(Substring(sealing(Array(fixed.prefix(23)))), now: now) == nil, "fixed fields cut short")
    }

    /// Cookies of the format before (version 2, which held a form token) still open, the token
    /// skipped, and their answer seals them again in the current format.
    @Test func aCookieOfTheFormatBeforeOpensAndIsSealedAgain() throws {
        let sent = payload(["userID": "42"])
        var olderRecord = Array(sent.bytes.prefix(24)) + SecureRandomBytes.draw(32)
        olderRecord += sent.bytes.dropFirst(24)
        let older = Base64URL.encode(codec.seal(olderRecord, version: SessionCodec.olderVersion))
        let opened = try #require(codec.decode(Substring(older), now: now))
        #expect(opened.record == sent && opened.isOlder)
        #expect(
            codec.decode(Substring(Base64URL.encode(codec.seal(sent.bytes, version: SessionCodec.olderVersion))), now: now) == nil,
            "a format-2 record without its token is short of 32 bytes: refused")
        let sessions = SessionConfiguration(secret: codec.secret)
        let session = Session(cookie: older, sessions: sessions)
        #expect(session["userID"] == "42")
        let setCookie = try #require(session.setCookie(sessions, now: now), "sealed again in the current format")
        let value = try #require(setCookie.split(separator: ";").first?.split(separator: "=", maxSplits: 1).last.map(String.init))
        #expect(try sealed(value)[0] == SessionCodec.version)
    }

    /// A session left holding nothing deletes the cookie it came with; one that never had a
    /// cookie and keeps nothing sets none.
    @Test func aSessionLeftEmptyDeletesItsCookie() throws {
        let sessions = SessionConfiguration(secret: codec.secret)
        let signedIn = Session(
            cookie: codec.encode(
                SessionRecord(id: SessionCodec.newIdentifier(), expires: Int64(Date().timeIntervalSince1970) + 600, values: ["userID": "42"])),
            sessions: sessions)
        signedIn.clear()
        let deletion = try #require(signedIn.setCookie(sessions))
        #expect(deletion.hasPrefix("tessera_session=; Max-Age=0"))
        let anonymous = Session(cookie: nil, sessions: sessions)
        anonymous["flash"] = "hello"
        anonymous["flash"] = nil
        #expect(anonymous.setCookie(sessions) == nil, "no cookie to delete, nothing to keep")
    }

    /// A cookie verified once is found again by its exact bytes, and only under its own secret;
    /// its expiry still counts, and a cookie that failed is never kept.
    @Test func verifiedCookiesAreKeptPerSecretAndStillExpire() throws {
        let sent = payload()
        let cookie = codec.encode(sent)
        #expect(codec.payload(in: cookie, now: now)?.record == sent)
        #expect(codec.payload(in: cookie, now: now)?.record == sent, "found again")
        #expect(codec.payload(in: cookie, now: Date(timeIntervalSince1970: 1_800_000_600)) == nil, "expired, though kept")
        let other = SessionCodec(secret: Data(repeating: 8, count: 32))
        #expect(other.payload(in: cookie, now: now) == nil, "kept under another secret")

        var tampered = try sealed(cookie)
        tampered[30] ^= 1
        let forged = Base64URL.encode(tampered)
        #expect(codec.payload(in: forged, now: now) == nil)
        #expect(codec.payload(in: forged, now: now) == nil, "still refused the second time")
    }

    /// A new secret rolls out without signing anyone out: a cookie signed with the previous one
    /// loads, and the answer signs it again with the new one; without the previous secret listed,
    /// the old cookie is no session.
    @Test func aCookieSignedWithAPreviousSecretLoadsAndIsSignedAgain() throws {
        let old = SessionConfiguration(secret: Data(repeating: 1, count: 32))
        let rotated = SessionConfiguration(secret: Data(repeating: 2, count: 32), previousSecrets: [Data(repeating: 1, count: 32)])
        let payload = SessionRecord(id: SessionCodec.newIdentifier(), expires: Int64(Date().timeIntervalSince1970) + 600, values: ["userID": "42"])
        let cookie = old.codec.encode(payload)

        let session = Session(cookie: cookie, sessions: rotated)
        #expect(session["userID"] == "42")
        let setCookie = try #require(session.setCookie(rotated), "signed again, though unchanged")
        let value = try #require(setCookie.split(separator: ";").first?.split(separator: "=", maxSplits: 1).last.map(String.init))
        #expect(rotated.codec.decode(Substring(value))?.record.values == ["userID": "42"], "under the new secret")
        #expect(old.codec.decode(Substring(value)) == nil)

        let current = Session(cookie: value, sessions: rotated)
        #expect(current["userID"] == "42" && current.setCookie(rotated) == nil, "nothing to sign again")
        #expect(Session(cookie: cookie, sessions: SessionConfiguration(secret: Data(repeating: 2, count: 32)))["userID"] == nil)
    }

    /// Two generations of `capacity` each: a flood of new cookies evicts, and what a visitor
    /// sends again is moved to the newer one, so it outlives the flood.
    @Test func theCookieCacheIsBounded() {
        let kept = VerifiedCookies(capacity: 2)
        let sent = payload()
        kept.keep(sent, for: "a")
        kept.keep(sent, for: "b")
        kept.keep(sent, for: "c")  // a and b become the older generation
        #expect(kept.payload(for: "a") == sent, "found in the older generation, and moved to the newer")
        kept.keep(sent, for: "d")  // c and a become the older generation; b is gone
        #expect(kept.payload(for: "b") == nil)
        #expect(kept.payload(for: "a") == sent)
        #expect(kept.payload(for: "d") == sent)
    }

    /// Kept by their bytes: a value canonically equivalent to a kept one (`K` and KELVIN SIGN,
    /// `é` whole and composed) is another cookie, which must open on its own.
    @Test func theCookieCacheComparesBytesNotCanonicalEquivalence() {
        let kept = VerifiedCookies(capacity: 4)
        let sent = payload()
        kept.keep(sent, for: "abcK")
        kept.keep(sent, for: "caf\u{E9}")
        let kelvin = "abc\u{212A}", composed = "cafe\u{301}"
        #expect(kelvin == "abcK" && composed == "caf\u{E9}", "equal as Strings")
        #expect(kept.payload(for: kelvin) == nil)
        #expect(kept.payload(for: composed) == nil)
        #expect(kept.payload(for: "abcK") == sent)
    }
}

/// The ids drawn for new sessions, in one call to the kernel.
@Suite struct SecureRandomBytesTests {
    @Test func drawsAreAsLongAsAskedAndNeverRepeat() {
        let draws = (0..<200).map { _ in SecureRandomBytes.draw(48) }
        #expect(draws.allSatisfy { $0.count == 48 })
        #expect(Set(draws).count == draws.count, "200 draws of 384 bits, all different")
        #expect(SessionCodec.newIdentifier().count == SessionRecord.idLength)
        // Every byte value turns up across 9,600 bytes: nothing stuck at zero.
        #expect(Set(draws.joined()).count == 256)
        #expect(SecureRandomBytes.draw(300).count == 300, "past getentropy's 256 bytes, the fallback draws")
    }
}
