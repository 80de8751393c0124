import Foundation
import Synchronization

/// This instance's copy of ``SessionEnds``, so that a signed-in request is checked in memory,
/// without a round trip to the database.
///
/// It is *current* once loaded while it follows every end as it happens: the ends made here
/// are recorded by ``AccountsService`` as they commit, and those of other instances arrive
/// through ``AccountsStore/followSessionEnds(started:received:interrupted:)`` (PostgreSQL's
/// `LISTEN`). While it does not follow (before the first load, or while the listener is cut
/// off), an end may be missing here, so it answers ``Standing/unknown`` and the request asks
/// the database; once following again, it loads everything anew, so what it missed meanwhile
/// counts.
final class SessionEndsReplica: Sendable {
    private struct State {
        var ends = SessionEnds()
        var isCurrent = false
        var lastForgot = Date()
    }

    private let state = Mutex(State())
    /// How long after its sign-in a session lasts at most: older ends are forgotten.
    private let lifetime: TimeInterval

    init(lifetime: TimeInterval) {
        self.lifetime = lifetime
    }

    /// What the replica says of a session.
    enum Standing: Equatable {
        case active
        case ended
        /// Not following right now: ask the database.
        case unknown
    }

    func standing(of sessionID: String, userID: Int, signedInAt: Date) -> Standing {
        state.withLock { state in
            if state.ends.hasEnded(sessionID, userID: userID, signedInAt: signedInAt) { return .ended }
            return state.isCurrent ? .active : .unknown
        }
    }

    /// Adds an end, made here or heard from another instance; every ten minutes, forgets those
    /// no session in use can need.
    func record(_ end: SessionEnd, now: Date = Date()) {
        state.withLock { state in
            state.ends.record(end)
            if now.timeIntervalSince(state.lastForgot) > 600 {
                state.ends.forget(before: now - lifetime)
                state.lastForgot = now
            }
        }
    }

    /// Following (again): `loaded` holds every end in force, read after following started, so
    /// nothing ended since is missing.
    func resume(with loaded: SessionEnds, now: Date = Date()) {
        state.withLock { state in
            state.ends.merge(loaded)
            state.ends.forget(before: now - lifetime)
            state.lastForgot = now
            state.isCurrent = true
        }
    }

    /// Following stopped: ends may be missed until it resumes.
    func interrupt() {
        state.withLock { $0.isCurrent = false }
    }

    var isCurrent: Bool { state.withLock { $0.isCurrent } }
}
