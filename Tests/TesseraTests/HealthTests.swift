import Foundation
import Synchronization
import Tessera
import TesseraTesting
import Testing

/// Liveness and readiness: `/healthz` touches nothing, `/readyz` runs the app's checks, within a
/// deadline, and says which failed without saying why.
@Suite struct HealthTests {
    struct Passing: ReadinessCheck {
        let name = "cache"
        func check() async throws {}
    }

    struct Failing: ReadinessCheck {
        struct Down: Error {}
        let name = "database"
        func check() async throws { throw Down() }
    }

    /// Never answers, and ignores cancellation, as a stuck driver would.
    struct Hanging: ReadinessCheck {
        let name = "payments"
        func check() async throws {
            await withCheckedContinuation { (_: CheckedContinuation<Void, Never>) in }
        }
    }

    static func app(_ checks: [any ReadinessCheck], timeout: Duration = .seconds(2)) throws -> Application {
        var app = ApplicationBuilder()
        app.register(HealthModule(checks: checks, timeout: timeout))
        return try app.build()
    }

    @Test func readyWhenEveryCheckPasses() async throws {
        try await Self.app([Passing()]).test { client in
            let ready = try await client.send("/readyz")
            #expect(ready.status == 200)
            #expect(ready.text == "ready\n")
            #expect(ready.header("cache-control") == "no-store")
            let live = try await client.send("/healthz")
            #expect(live.status == 200)
            #expect(live.header("cache-control") == "no-store")
        }
    }

    @Test func aFailingCheckIsNamedButNotExplained() async throws {
        try await Self.app([Passing(), Failing()]).test { client in
            let ready = try await client.send("/readyz")
            #expect(ready.status == 503)
            #expect(ready.text == "not ready: database\n")
            #expect(try await client.send("/healthz").status == 200, "liveness does not depend on the database")
        }
    }

    @Test func aHangingCheckFailsAtTheDeadline() async throws {
        try await Self.app([Hanging(), Passing()], timeout: .seconds(1)).test(.live) { client in
            let ready = try await client.send("/readyz")
            #expect(ready.status == 503)
            #expect(ready.text == "not ready: payments\n")
        }
    }

    /// A check that passes once, then hangs (a database that stalls): probes keep answering at
    /// once from the latest run while the next one waits, and report the hang once the
    /// timeout has passed. The timeout is a minute, so a probe that waited for the hanging run
    /// would not answer within the test client's patience.
    @Test func probesAnswerFromTheLatestRunWhileTheNextOneHangs() async throws {
        final class Runs: Sendable { let count = Mutex(0) }
        let runs = Runs()
        struct HangsAfterTheFirst: ReadinessCheck {
            let runs: Runs
            let name = "database"
            func check() async throws {
                guard
                    runs.count.withLock({
                        $0 += 1
                        return $0
                    }) > 1
                else { return }
                await withCheckedContinuation { (_: CheckedContinuation<Void, Never>) in }
            }
        }
        let check = HangsAfterTheFirst(runs: runs)
        var app = ApplicationBuilder()
        app.register(HealthModule(checks: [check], timeout: .seconds(60), freshness: .milliseconds(10)))
        try await app.build().test(.live) { client in
            #expect(try await client.send("/readyz").status == 200, "the first probe waits for the first run")
            try await Task.sleep(for: .milliseconds(50))
            for _ in 0..<3 {
                let probe = try await client.send("/readyz")
                #expect(probe.status == 200, "answered from the latest run, not held by the hanging one")
            }
            // The second run's check starts in a task of its own, which a busy machine may not
            // have run yet when the probes are answered: wait for that event, then count.
            let started = ContinuousClock.now
            while runs.count.withLock({ $0 }) < 2, ContinuousClock.now - started < .seconds(30) {
                try await Task.sleep(for: .milliseconds(10))
            }
            #expect(runs.count.withLock { $0 } == 2, "one run hangs; no probe started another meanwhile")
        }
    }
}
