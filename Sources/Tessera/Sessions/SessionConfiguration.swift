import Crypto
public import Foundation

/// How sessions are kept: an encrypted, authenticated cookie, so the server stores nothing and a restart loses nothing.
public struct SessionConfiguration: Sendable {
    /// The cookie's name; change it when two apps share a domain.
    public var cookieName: String
    /// How long a session lasts without a change: the cookie's `Max-Age` and its sealed expiry,
    /// both renewed whenever the session changes.
    public var maxAge: Duration
    /// Adds `Secure` to the cookie. Turn on when the site is served over HTTPS (behind a proxy
    /// too). Without it, the cookie is still `Secure` on requests a trusted proxy reports as
    /// HTTPS (`Request.isSecure`).
    public var secureCookies: Bool
    /// Names the cookie `__Host-` + ``cookieName``. Browsers keep such a cookie only with
    /// `Secure`, `Path=/` and no `Domain`, so neither a sibling subdomain nor a plain-HTTP page can
    /// plant or overwrite it. Implies ``secureCookies``.
    public var hostPrefix: Bool
    let secret: Data

    /// Sessions sealed with `secret`, usually the first of
    /// ``SessionConfiguration/loadSecrets(dataDirectory:environment:)``; a cookie sealed with one
    /// of `previousSecrets` still works, and is sealed again with `secret` in the same answer, so
    /// a new secret rolls out without signing anyone out. Whoever has a secret can forge and read
    /// any session, so keep them out of the repository, and drop a previous one once every
    /// session sealed with it has expired (``maxAge``).
    public init(
        secret: Data, previousSecrets: [Data] = [], cookieName: String = "tessera_session", maxAge: Duration = .seconds(14 * 24 * 3600),
        secureCookies: Bool = false, hostPrefix: Bool = false
    ) {
        self.secret = secret
        self.codec = SessionCodec(secret: secret)
        self.previousCodecs = previousSecrets.map(SessionCodec.init(secret:))
        self.cookieName = cookieName
        self.maxAge = maxAge
        self.secureCookies = secureCookies
        self.hostPrefix = hostPrefix
    }

    /// The cookie's name as sent, with the `__Host-` prefix when ``hostPrefix`` asks for it.
    public var sentCookieName: String { hostPrefix ? "__Host-" + cookieName : cookieName }

    /// Seals and opens the cookies: made once, since it derives its key from the secret.
    let codec: SessionCodec
    /// Opens cookies sealed with the previous secrets, newest first.
    let previousCodecs: [SessionCodec]

    /// The secrets from `SESSION_SECRET` when set: the current one first, then the previous ones
    /// still accepted, separated by spaces or commas (`SESSION_SECRET="new… old…"`), each at least
    /// 32 characters. Else the one kept in `<dataDirectory>/session-secret`, which is made once
    /// with 256 random bits and mode 0600, so sessions survive restarts without anyone having to
    /// configure anything. A kept file shorter than 32 bytes stops the start
    /// (``SecretFileTooShort``): replacing it would sign everyone out, and it may be someone's
    /// mistake worth seeing.
    public static func loadSecrets(dataDirectory: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws -> [Data] {
        if let list = environment["SESSION_SECRET"], !list.isEmpty {
            let secrets = list.split { $0 == " " || $0 == "," || $0 == "\n" || $0 == "\t" }
            guard !secrets.isEmpty, secrets.allSatisfy({ $0.utf8.count >= 32 }) else { throw SecretTooShort() }
            return secrets.map { Data($0.utf8) }
        }
        let path = URL(fileURLWithPath: dataDirectory).appendingPathComponent("session-secret").path
        if let existing = FileManager.default.contents(atPath: path) {
            guard existing.count >= 32 else { throw SecretFileTooShort(path: path, bytes: existing.count) }
            return [existing]
        }
        try FileManager.default.createDirectory(atPath: dataDirectory, withIntermediateDirectories: true)
        return [try create(SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }, at: path)]
    }

    /// Writes `secret` to a new file at `path`: mode 0600 from its creation (never the umask's
    /// mode first, then a `chmod`), and published whole by a hard link, so an instance starting
    /// at the same moment reads one complete secret, whichever was linked first, and uses it.
    private static func create(_ secret: Data, at path: String) throws -> Data {
        let partial = "\(path).\(getpid()).partial"
        let descriptor = open(partial, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: partial]) }
        defer { unlink(partial) }
        let written = secret.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        let synced = fsync(descriptor) == 0
        close(descriptor)
        guard written == secret.count, synced else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: partial]) }
        guard link(partial, path) == 0 else {
            guard errno == EEXIST, let first = FileManager.default.contents(atPath: path) else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
            }
            guard first.count >= 32 else { throw SecretFileTooShort(path: path, bytes: first.count) }
            return first
        }
        return secret
    }

    /// Thrown by ``SessionConfiguration/loadSecrets(dataDirectory:environment:)`` when the kept
    /// `session-secret` file holds fewer than 32 bytes.
    public struct SecretFileTooShort: Error, CustomStringConvertible {
        /// The file.
        public let path: String
        /// How many bytes it holds.
        public let bytes: Int

        /// What to fix, for the message that stops the app.
        public var description: String {
            "\(path) holds \(bytes) bytes; a session secret needs at least 32. Restore it, or delete it to make a new one (which signs everyone out)."
        }
    }

    /// Thrown by ``SessionConfiguration/loadSecrets(dataDirectory:environment:)`` when a secret of
    /// `SESSION_SECRET` is shorter than 32 characters, which would be too easy to guess.
    public struct SecretTooShort: Error, CustomStringConvertible {
        /// What to fix, for the message that stops the app.
        public var description: String { "SESSION_SECRET must be at least 32 characters long, each secret of a list too" }
    }
}
