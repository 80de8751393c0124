import Foundation
import Testing
import Tessera
import TesseraTesting

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
}
