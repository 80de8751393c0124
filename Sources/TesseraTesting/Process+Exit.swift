public import Foundation

extension Process {
    /// How the program ended (its exit code, or the signal that ended it, as
    /// `terminationStatus` gives them), or `nil` while it runs or before it started.
    ///
    /// Why not `isRunning` alone: corelibs Foundation learns of an exit when a socket it passed
    /// to the child closes, and a program the test process starts at the same moment on another
    /// thread can inherit that socket and keep it open (swiftlang/swift-corelibs-foundation#4795);
    /// `isRunning` then stays true for as long as that other program lives. This asks the
    /// kernel too, and leaves the child for Foundation to reap (`WNOWAIT`).
    public var exitStatusIfEnded: Int32? {
        guard processIdentifier > 0 else { return nil }
        // Reaped by Foundation: its number may belong to another program by now, so the status
        // is Foundation's to give.
        guard isRunning else { return terminationStatus }
        #if canImport(Glibc)
        var info = siginfo_t()
        // ECHILD: Foundation reaped it just now, and the next call reads its status.
        guard waitid(P_PID, id_t(processIdentifier), &info, WEXITED | WNOHANG | WNOWAIT) == 0 else { return nil }
        // With WNOHANG, a child that runs on leaves `info` as it was: zeroed.
        guard info._sifields._sigchld.si_pid != 0 else { return nil }
        return info._sifields._sigchld.si_status
        #else
        return nil
        #endif
    }
}
