import Foundation
import TesseraTesting
import Testing

/// The test harness must see a program end even when Foundation cannot.
struct ProcessExitTests {
    /// A program whose own child outlives it: that child inherits the socket Foundation watches,
    /// so `isRunning` stays true (swiftlang/swift-corelibs-foundation#4795), as it does when a
    /// parallel test starts a program at the same moment. The kernel knows better.
    @Test func anExitIsSeenWhileAnInheritorOfFoundationsSocketLivesOn() async throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "sleep 30 & echo $!; exit 3"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let line = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
        let sleeper = try #require(pid_t(line.trimmingCharacters(in: .whitespacesAndNewlines)))
        defer { kill(sleeper, SIGKILL) }

        let deadline = ContinuousClock.now + .seconds(10)
        var status: Int32?
        while status == nil, ContinuousClock.now < deadline {
            status = process.exitStatusIfEnded
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(status == 3)
        #expect(process.exitStatusIfEnded == 3, "asking again, before Foundation reaps it, gives the same answer")
    }

    @Test func aRunningProgramHasNoStatusAndASignalledOneGivesItsSignal() async throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sleep")
        process.arguments = ["30"]
        try process.run()
        #expect(process.exitStatusIfEnded == nil)
        kill(process.processIdentifier, SIGKILL)
        let deadline = ContinuousClock.now + .seconds(10)
        while process.exitStatusIfEnded == nil, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(process.exitStatusIfEnded == SIGKILL)
    }
}
