import Crypto
import Foundation
import Tessera
import TesseraTesting
import Testing

@testable import TesseraPasskeys

/// The relying party's checks against the WebAuthn Level 3 specification's test vector for an
/// ES256 credential with no attestation (§16, `none.ES256`: rpId `example.org`), then against a
/// software authenticator for every refusal: another origin, another ceremony, another relying
/// party, a reused or foreign challenge, a changed byte, a counter that went back.
@Suite struct PasskeyVerificationTests {
    static let hex = CBORTests.hex
    /// The specification's vector was made without user verification (its flags say so).
    static let party = PasskeyRelyingParty(id: "example.org", name: "Example", requiresUserVerification: false)
    static let origin = "https://example.org"

    // MARK: The specification's vector

    static let registrationChallenge = hex("00c30fb78531c464d2b6771dab8d7b603c01162f2fa486bea70f283ae556e130")
    static let registrationClientData = hex(
        "7b2274797065223a22776562617574686e2e637265617465222c226368616c6c656e6765223a22414d4d507434557878475453746e63647134313759447742466938767049612d7077386f4f755657345441222c226f726967696e223a2268747470733a2f2f6578616d706c652e6f7267222c2263726f73734f726967696e223a66616c73652c22657874726144617461223a22636c69656e74446174614a534f4e206d617920626520657874656e6465642077697468206164646974696f6e616c206669656c647320696e20746865206675747572652c207375636820617320746869733a20426b5165446a646354427258426941774a544c453551227d"
    )
    static let attestationObject = hex(
        "a363666d74646e6f6e656761747453746d74a068617574684461746158a4bfabc37432958b063360d3ad6461c9c4735ae7f8edd46592a5e0f01452b2e4b559000000008446ccb9ab1db374750b2367ff6f3a1f0020f91f391db4c9b2fde0ea70189cba3fb63f579ba6122b33ad94ff3ec330084be4a5010203262001215820afefa16f97ca9b2d23eb86ccb64098d20db90856062eb249c33a9b672f26df61225820930a56b87a2fca66334b03458abf879717c12cc68ed73290af2e2664796b9220"
    )
    static let credentialID = hex("f91f391db4c9b2fde0ea70189cba3fb63f579ba6122b33ad94ff3ec330084be4")
    static let publicKeyPoint = hex(
        "04afefa16f97ca9b2d23eb86ccb64098d20db90856062eb249c33a9b672f26df61930a56b87a2fca66334b03458abf879717c12cc68ed73290af2e2664796b9220")
    static let assertionChallenge = hex("39c0e7521417ba54d43e8dc95174f423dee9bf3cd804ff6d65c857c9abf4d408")
    static let assertionClientData = hex(
        "7b2274797065223a22776562617574686e2e676574222c226368616c6c656e6765223a224f63446e55685158756c5455506f334a5558543049393770767a7a59425039745a63685879617630314167222c226f726967696e223a2268747470733a2f2f6578616d706c652e6f7267222c2263726f73734f726967696e223a66616c73657d"
    )
    static let authenticatorData = hex("bfabc37432958b063360d3ad6461c9c4735ae7f8edd46592a5e0f01452b2e4b51900000000")
    static let signature = hex(
        "3046022100f50a4e2e4409249c4a853ba361282f09841df4dd4547a13a87780218deffcd380221008480ac0f0b93538174f575bf11a1dd5d78c6e486013f937295ea13653e331e87"
    )

    @Test func theSpecificationsRegistrationVerifies() throws {
        let clientData = try ClientData(json: Self.registrationClientData)
        #expect(clientData.challenge == Self.registrationChallenge)
        let registered = try Self.party.verifyRegistration(
            clientData: clientData, attestationObject: Self.attestationObject,
            issued: Self.registrationChallenge, origin: Self.origin)
        #expect(registered.credentialID == Self.credentialID)
        #expect(registered.publicKey.uncompressedPoint == Self.publicKeyPoint)
        #expect(registered.signCount == 0)
    }

    @Test func userVerificationIsRequiredByDefault() throws {
        #expect(throws: PasskeyError.userNotVerified) {
            try PasskeyRelyingParty(id: "example.org", name: "Example").verifyAssertion(
                clientData: ClientData(json: Self.assertionClientData), authenticatorData: Self.authenticatorData, signature: Self.signature,
                issued: Self.assertionChallenge, origin: Self.origin, publicKey: PasskeyPublicKey(uncompressedPoint: Self.publicKeyPoint),
                storedSignCount: 0)
        }
    }

    @Test func theSpecificationsAssertionVerifiesOnceItsCounterIsAccountedFor() throws {
        let clientData = try ClientData(json: Self.assertionClientData)
        let key = try PasskeyPublicKey(uncompressedPoint: Self.publicKeyPoint)
        let count = try Self.party.verifyAssertion(
            clientData: clientData, authenticatorData: Self.authenticatorData, signature: Self.signature,
            issued: Self.assertionChallenge, origin: Self.origin, publicKey: key, storedSignCount: 0)
        #expect(count == 0, "an authenticator that keeps no counter says 0 each time")
        var changed = Self.signature
        changed[10] ^= 1
        #expect(throws: PasskeyError.badSignature) {
            try Self.party.verifyAssertion(
                clientData: clientData, authenticatorData: Self.authenticatorData, signature: changed,
                issued: Self.assertionChallenge, origin: Self.origin, publicKey: key, storedSignCount: 0)
        }
        #expect(throws: PasskeyError.wrongOrigin("https://example.org")) {
            try Self.party.verifyAssertion(
                clientData: clientData, authenticatorData: Self.authenticatorData, signature: Self.signature,
                issued: Self.assertionChallenge, origin: "https://shop.example", publicKey: key, storedSignCount: 0)
        }
        #expect(throws: PasskeyError.wrongRelyingParty) {
            try PasskeyRelyingParty(id: "org", name: "A parent domain").verifyAssertion(
                clientData: clientData, authenticatorData: Self.authenticatorData, signature: Self.signature,
                issued: Self.assertionChallenge, origin: Self.origin, publicKey: key, storedSignCount: 0)
        }
        #expect(throws: PasskeyError.counterWentBack(stored: 5, received: 0)) {
            try Self.party.verifyAssertion(
                clientData: clientData, authenticatorData: Self.authenticatorData, signature: Self.signature,
                issued: Self.assertionChallenge, origin: Self.origin, publicKey: key, storedSignCount: 5)
        }
        #expect(throws: PasskeyError.challengeNotIssued) {
            try Self.party.verifyAssertion(
                clientData: clientData, authenticatorData: Self.authenticatorData, signature: Self.signature,
                issued: Self.registrationChallenge, origin: Self.origin, publicKey: key, storedSignCount: 0)
        }
        #expect(throws: PasskeyError.wrongType("webauthn.create")) {
            try Self.party.verifyAssertion(
                clientData: ClientData(json: Self.registrationClientData), authenticatorData: Self.authenticatorData,
                signature: Self.signature, issued: Self.registrationChallenge, origin: Self.origin, publicKey: key, storedSignCount: 0)
        }
    }

    @Test func theSpecificationsAuthenticatorDataParses() throws {
        guard case .bytes(let bytes) = try CBORReader.decode(Self.attestationObject)["authData"] else {
            Issue.record("no authData")
            return
        }
        let data = try AuthenticatorData(bytes)
        #expect(data.relyingPartyIDHash == Array(SHA256.hash(data: Array("example.org".utf8))))
        #expect(data.userPresent && !data.userVerified)
        #expect(data.credential?.aaguid == Self.hex("8446ccb9ab1db374750b2367ff6f3a1f"))
        #expect(data.credential?.id == Self.credentialID)
        for length in [0, 36, 37 + 17, bytes.count - 1] {
            #expect(throws: PasskeyError.self, "cut at \(length)") { try AuthenticatorData(Array(bytes.prefix(length))) }
        }
    }

    // MARK: TesseraTesting's software authenticator, for counters and every ceremony's refusals

    @Test func aRegisteredPasskeySignsInAndItsCounterMustGoUp() throws {
        var authenticator = SoftwareAuthenticator(relyingPartyID: "example.org")
        let challenge = PasskeyRelyingParty.newChallenge()
        let registered = try Self.party.verifyRegistration(
            clientData: ClientData(json: authenticator.clientData("webauthn.create", challenge: challenge, origin: Self.origin)),
            attestationObject: authenticator.attestationObject(), issued: challenge, origin: Self.origin)
        #expect(registered.credentialID == authenticator.credentialID)
        var stored: UInt32 = registered.signCount
        for _ in 0..<3 {
            let next = PasskeyRelyingParty.newChallenge()
            let signed = authenticator.assertion(challenge: next, origin: Self.origin)
            stored = try Self.party.verifyAssertion(
                clientData: ClientData(json: signed.clientData), authenticatorData: signed.authenticatorData,
                signature: signed.signature, issued: next, origin: Self.origin,
                publicKey: registered.publicKey, storedSignCount: stored)
        }
        #expect(stored == 3)
        // A copy of the authenticator, one step behind.
        authenticator.counter = 1
        let next = PasskeyRelyingParty.newChallenge()
        let cloned = authenticator.assertion(challenge: next, origin: Self.origin)
        #expect(throws: PasskeyError.counterWentBack(stored: 3, received: 2)) {
            try Self.party.verifyAssertion(
                clientData: ClientData(json: cloned.clientData), authenticatorData: cloned.authenticatorData,
                signature: cloned.signature, issued: next, origin: Self.origin,
                publicKey: registered.publicKey, storedSignCount: stored)
        }
    }

    @Test func registrationsThatAreNotForThisSiteAreRefused() throws {
        let authenticator = SoftwareAuthenticator(relyingPartyID: "example.org")
        let challenge = PasskeyRelyingParty.newChallenge()
        func register(clientData: [UInt8], attestation: [UInt8], origin: String = Self.origin) throws {
            _ = try Self.party.verifyRegistration(
                clientData: ClientData(json: clientData), attestationObject: attestation, issued: challenge, origin: origin)
        }
        let good = authenticator.clientData("webauthn.create", challenge: challenge, origin: Self.origin)
        #expect(throws: PasskeyError.wrongOrigin("https://evil.example")) {
            try register(
                clientData: authenticator.clientData("webauthn.create", challenge: challenge, origin: "https://evil.example"),
                attestation: authenticator.attestationObject())
        }
        #expect(throws: PasskeyError.wrongOrigin("https://example.org.evil.example")) {
            try register(
                clientData: authenticator.clientData("webauthn.create", challenge: challenge, origin: "https://example.org.evil.example"),
                attestation: authenticator.attestationObject(), origin: "https://example.org.evil.example")
        }
        #expect(throws: PasskeyError.wrongType("webauthn.get")) {
            try register(
                clientData: authenticator.clientData("webauthn.get", challenge: challenge, origin: Self.origin),
                attestation: authenticator.attestationObject())
        }
        #expect(throws: PasskeyError.userNotPresent) { try register(clientData: good, attestation: authenticator.attestationObject(flags: 0x04)) }
        #expect(throws: PasskeyError.userNotVerified) {
            _ = try PasskeyRelyingParty(id: "example.org", name: "Example").verifyRegistration(
                clientData: ClientData(json: good), attestationObject: authenticator.attestationObject(flags: 0x01), issued: challenge,
                origin: Self.origin)
        }
        var elsewhere = authenticator
        elsewhere.relyingPartyID = "evil.example"
        #expect(throws: PasskeyError.wrongRelyingParty) { try register(clientData: good, attestation: elsewhere.attestationObject()) }
        #expect(throws: PasskeyError.self) { try register(clientData: good, attestation: Array(authenticator.attestationObject().dropLast(3))) }
        #expect(throws: PasskeyError.self) { try register(clientData: Array("not json".utf8), attestation: authenticator.attestationObject()) }
        #expect(throws: PasskeyError.challengeNotIssued) {
            try register(
                clientData: authenticator.clientData("webauthn.create", challenge: PasskeyRelyingParty.newChallenge(), origin: Self.origin),
                attestation: authenticator.attestationObject())
        }
    }
}
