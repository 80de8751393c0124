public import ArgumentParser
public import Foundation
public import Tessera

/// The command-line options of an app with passkeys, each with its environment variable.
///
/// The relying party ID is the domain passkeys belong to: a passkey made for `shop.example.com`
/// works there and on its subdomains, nowhere else, and changing the ID later orphans every
/// passkey made before. By default it is the host of `PUBLIC_URL`, or `localhost` without one
/// (a developer's machine; browsers treat `http://localhost` as secure).
public struct PasskeyOptions: ParsableArguments, Sendable {
    /// `--passkey-rp-id`; `nil` when not given, so `PASSKEY_RP_ID` or the default applies.
    @Option(
        name: .customLong("passkey-rp-id"),
        help: "The domain passkeys belong to, such as shop.example.com. [env: PASSKEY_RP_ID] (default: PUBLIC_URL's host, else localhost)")
    public var relyingPartyID: String?

    /// `--passkey-rp-name`; `nil` when not given, so `PASSKEY_RP_NAME` or the default applies.
    @Option(
        name: .customLong("passkey-rp-name"), help: "The name browsers show when a passkey is made. [env: PASSKEY_RP_NAME] (default: Tessera Shop)")
    public var relyingPartyName: String?

    /// Parsed by ArgumentParser, as an `@OptionGroup` of the app's command.
    public init() {}

    /// The relying party, checked: the ID must be a domain name (not an address, no port), and
    /// the site's `publicURL`, when given, must be on it, or no browser would make a passkey.
    /// An ID other than `localhost` needs `publicURL`, the origin answers are checked against.
    public func resolve(
        publicURL: SiteURL?, defaultName: String = "Tessera Shop",
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> PasskeyRelyingParty {
        let value = OptionEnvironment(environment).string
        let publicHost = publicURL.map { String($0.authority.prefix { $0 != ":" }) }
        let id = (value(relyingPartyID, "PASSKEY_RP_ID") ?? publicHost ?? "localhost").lowercased()
        let labels = id.split(separator: ".", omittingEmptySubsequences: false)
        guard id.utf8.count <= 253, !labels.isEmpty,
            labels.allSatisfy({ label in
                !label.isEmpty && label.count <= 63 && !label.hasPrefix("-") && !label.hasSuffix("-")
                    && label.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
            }), !labels.allSatisfy({ $0.allSatisfy(\.isNumber) })
        else {
            throw ValidationError("PASSKEY_RP_ID=\(id) is not a domain name such as shop.example.com.")
        }
        // The page's origin is then PUBLIC_URL, fixed; without it, it would be each request's
        // Host, which a client on another subdomain of the ID could name.
        guard publicHost != nil || id == "localhost" else {
            throw ValidationError("PASSKEY_RP_ID=\(id) needs PUBLIC_URL: passkeys are checked against the site's own origin.")
        }
        if let publicHost, publicHost != id, !publicHost.hasSuffix("." + id) {
            throw ValidationError("PASSKEY_RP_ID=\(id) must be PUBLIC_URL's host (\(publicHost)) or a domain it is under.")
        }
        let name = value(relyingPartyName, "PASSKEY_RP_NAME") ?? defaultName
        guard name.count <= 64, !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw ValidationError("PASSKEY_RP_NAME must be at most 64 characters, on one line.")
        }
        return PasskeyRelyingParty(id: id, name: name)
    }
}
