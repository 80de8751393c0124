public import Foundation

/// The signed-in sessions that ended before their time, as the database records them.
///
/// A session cookie is signed, so who is signed in and since when can be read from it without
/// asking anyone; what the cookie cannot say is that the session ended since it was issued.
/// Sign-out ends one session; a password change ends every session of the user signed in
/// before it. Both are kept only while a session they end could still be in use, that is
/// for ``AccountsService/sessionLifetime`` after its sign-in.
public struct SessionEnds: Sendable, Equatable {
    /// Sessions signed out, by id, with the moment each was signed in.
    public var signedOut: [String: Date]
    /// Per user, the moment before which every session of theirs ended (their last password
    /// change).
    public var endedBefore: [Int: Date]

    /// The ends a store read, or none: what an instance starts from before its listener catches up.
    public init(signedOut: [String: Date] = [:], endedBefore: [Int: Date] = [:]) {
        self.signedOut = signedOut
        self.endedBefore = endedBefore
    }

    /// Whether session `sessionID` of `userID`, signed in at `signedInAt`, has ended.
    public func hasEnded(_ sessionID: String, userID: Int, signedInAt: Date) -> Bool {
        if signedOut[sessionID] != nil { return true }
        if let cutoff = endedBefore[userID], signedInAt < cutoff { return true }
        return false
    }

    /// Adds what `other` knows: ends never come undone, so the union is always right.
    public mutating func merge(_ other: SessionEnds) {
        signedOut.merge(other.signedOut) { kept, _ in kept }
        endedBefore.merge(other.endedBefore) { max($0, $1) }
    }

    /// Adds one end.
    public mutating func record(_ end: SessionEnd) {
        switch end {
        case .signedOut(let sessionID, let signedInAt): signedOut[sessionID] = signedInAt
        case .everySession(let userID, let cutoff): endedBefore[userID] = max(endedBefore[userID] ?? cutoff, cutoff)
        }
    }

    /// Drops the ends that no session in use can need: those of sign-ins before `oldestSignIn`,
    /// which are over by their age alone.
    public mutating func forget(before oldestSignIn: Date) {
        signedOut = signedOut.filter { $0.value >= oldestSignIn }
        endedBefore = endedBefore.filter { $0.value >= oldestSignIn }
    }
}

/// One way a session ends early.
public enum SessionEnd: Sendable, Equatable {
    /// Sign-out: the one session, signed in at the given moment.
    case signedOut(sessionID: String, signedInAt: Date)
    /// A password change: every session of the user signed in before the given moment.
    case everySession(userID: Int, signedInBefore: Date)
}
