import Foundation
import Synchronization
import TesseraTesting
import Testing

/// The storefront killed with SIGKILL in the middle of checkouts and payments, three times, and
/// started again on the same data directory each time: whatever a shopper was told happened did
/// happen, whole, and nothing half-done is left.
@Suite(.serialized) struct CrashSafetyTests {
    /// What the shoppers were told, across all rounds.
    final class Acknowledged: Sendable {
        /// Order id → its lines as the cart held them: product id → quantity.
        let orders = Mutex<[Int: [Int: Int]]>([:])
        let payments = Mutex<Set<Int>>([])
        let roundOrders = Atomic(0)
    }

    /// One shopper, until the server goes away under it: a new account, then put two products
    /// in the cart, check out, and pay every other order.
    static func shop(_ shopper: String, port: Int, acknowledged: Acknowledged) async {
        let browser = TestClient(port: port)
        do {
            guard
                try await browser.submit(
                    from: "/register", to: "/register",
                    form: "name=Crash&email=\(shopper)%40example.com&password=long-enough-1"
                ).status == 303
            else { return }
            for round in 0... {
                // What the cart holds: a product out of stock is refused, and stays out of the order.
                var lines: [Int: Int] = [:]
                for (product, quantity) in [1 + round % 8: 1 + round % 2, 1 + (round + 3) % 8: 1] {
                    let added = try await browser.submit(
                        from: "/products/\(product)", to: "/cart/items", form: "productID=\(product)&quantity=\(quantity)")
                    if added.status == 303 { lines[product] = quantity }
                }
                let placed = try await browser.submit(from: "/checkout", to: "/checkout", form: "")
                guard placed.status == 303, let location = placed.header("location"), let id = Int(location.dropFirst("/orders/".count)) else {
                    continue
                }
                acknowledged.orders.withLock { $0[id] = lines }
                acknowledged.roundOrders.add(1, ordering: .relaxed)
                guard round % 2 == 0 else { continue }
                let page = try await browser.send(location)
                guard let key = page.markup.first("name", equalTo: "idempotencyKey")?["value"] else { continue }
                let paid = try await browser.send("\(location)/pay", method: "POST", form: "idempotencyKey=\(key)")
                if paid.status == 303 { _ = acknowledged.payments.withLock { $0.insert(id) } }
            }
        } catch {
            // The server was killed: this shopper's round is over.
        }
    }

    @Test func killedThreeTimesMidBurstNothingAcknowledgedIsLost() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-crash-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let environment = TestStorefront.environment(dataDirectory: data)
        let live = data.appendingPathComponent("storefront.sqlite").path
        let acknowledged = Acknowledged()
        var baseline: [Int: Int]?

        for round in 1...4 {
            let storefront = try ProcessHarness(product: "storefront", environment: environment, workingDirectory: ProcessHarness.packageRoot)
            let port = try await storefront.waitForPort()

            // After each restart (and before the first burst): everything acknowledged is there.
            let state = try StoreSnapshot(path: live)
            if let baseline {
                #expect(state.stockAccountedFor == baseline, "round \(round): stock plus open orders still add up")
            } else {
                baseline = state.stockAccountedFor
            }
            for (id, lines) in acknowledged.orders.withLock({ $0 }) {
                #expect(state.lines[id] == lines, "round \(round): order \(id) survived with all its lines")
            }
            for id in acknowledged.payments.withLock({ $0 }) {
                #expect(state.paid.contains(id), "round \(round): the payment of order \(id) survived")
            }
            #expect(try await onThread { try RawHTTPClient.request(port: port, "/readyz") }.status == 200)
            guard round < 4 else {
                storefront.signal(SIGTERM)
                #expect(try await storefront.waitForExit() == 0)
                break
            }

            // A burst, killed once it is well under way.
            acknowledged.roundOrders.store(0, ordering: .relaxed)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for shopper in 0..<4 {
                    group.addTask { await Self.shop("r\(round)-s\(shopper)", port: port, acknowledged: acknowledged) }
                }
                group.addTask {
                    let deadline = ContinuousClock.now + .seconds(60)
                    while acknowledged.roundOrders.load(ordering: .relaxed) < 12, ContinuousClock.now < deadline {
                        try await Task.sleep(for: .milliseconds(10))
                    }
                    storefront.signal(SIGKILL)
                }
                try await group.waitForAll()
            }
            _ = try await storefront.waitForExit()
            #expect(acknowledged.roundOrders.load(ordering: .relaxed) >= 12, "round \(round) got going before the kill")
        }
        #expect(acknowledged.orders.withLock { $0.count } >= 36)
        #expect(!acknowledged.payments.withLock { $0.isEmpty })
    }
}
