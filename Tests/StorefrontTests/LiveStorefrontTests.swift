import Foundation
import TesseraTesting
import Testing

/// The storefront's live regions through a real `storefront` process: a change one shopper
/// makes shows in another shopper's open page, and a SIGTERM ends open streams cleanly.
@Suite struct LiveStorefrontTests {
    @Test func anOpenProductPageShowsSoldOutWhenAnotherShopperBuysTheLastItems() async throws {
        var ending: Task<[EventStreamClient.Event], any Error>?
        try await TestStorefront.run { shop in
            // The watcher, anonymous, has product 10's page open (13 in stock).
            let watcher = TestClient(port: shop.port)
            let page = try await watcher.send("/products/10")
            let url = try #require(page.markup.first("data-live-stream")?["data-live-stream"])
            #expect(url.contains("src=/products/10/detail") && url.contains("src=/products/10/add-to-cart"))
            #expect(watcher.cookie == nil, "a visitor without a session follows the kept page's regions")
            let stream = try await onThread { try EventStreamClient.open(port: shop.port, url) }
            #expect(stream.head.status == 200)

            // Another shopper buys all of it.
            let buyer = TestClient(port: shop.port)
            _ = try await buyer.submit(from: "/products/10", to: "/cart/items", form: "productID=10&quantity=13")
            _ = try await buyer.submit(from: "/login", to: "/login", form: "email=grace%40example.com&password=grace-hopper-1906")
            #expect(try await buyer.submit(from: "/checkout", to: "/checkout", form: "").status == 303)

            var regions: [String: String] = [:]
            while regions.count < 2 {
                let event = try #require(try await onThread { try stream.next() })
                let head = event.data.prefix { $0 != "\n" }.split(separator: " ")
                regions[String(head[1])] = event.data
            }
            let addToCart = try #require(regions["/products/10/add-to-cart"])
            #expect(addToCart.contains("Sold out"))
            #expect(!addToCart.contains("<form"), "nothing left to add")
            #expect(try #require(regions["/products/10/detail"]).contains(#"data-stock="0""#))

            // Left open: the SIGTERM that ends the run must end it too, with its last chunk.
            ending = Task { try await onThread { try stream.rest() } }
        }
        #expect(try await #require(ending).value.isEmpty, "the stream ended cleanly on SIGTERM, and the process exited 0")
    }

    @Test func anOpenOrderPageShowsShippedWhenStaffShipIt() async throws {
        try await TestStorefront.run { shop in
            let ada = try await BackOfficeTests.signedIn(shop, "ada@example.com", "ada-lovelace-1815")
            let list = try await ada.send("/orders?status=paid")
            // The list's rows are live at their own URL, query and all: encoded as one value.
            #expect(try #require(list.markup.first("data-live-stream")?["data-live-stream"]).hasPrefix("/_live?src=/orders/rows%3Fstatus%3Dpaid&v="))
            let paid = try #require(list.markup.tags(with: "data-view", equalTo: "OrderRow").first?["data-order-id"])
            let page = try await ada.send("/orders/\(paid)")
            let url = try #require(page.markup.first("data-live-stream")?["data-live-stream"])
            #expect(url.hasPrefix("/_live?src=/orders/\(paid)/status&v="))
            let cookie = try #require(ada.cookie)
            let stream = try await onThread { try EventStreamClient.open(port: shop.port, url, headers: ["Cookie": cookie]) }

            // Another visitor's stream for the same order gets nothing: it is not theirs.
            let grace = try await BackOfficeTests.signedIn(shop, "grace@example.com", "grace-hopper-1906")
            let graceCookie = try #require(grace.cookie)
            let refused = try await onThread { try EventStreamClient.open(port: shop.port, url, headers: ["Cookie": graceCookie]) }
            #expect(try await onThread { try refused.rest() }.map(\.name) == ["closed"])

            let sam = try await BackOfficeTests.staff(shop)
            #expect(
                try await sam.submit(from: "/admin/orders/\(paid)", to: "/admin/orders/\(paid)/ship", form: "trackingNumber=1Z999AA10123456784")
                    .status == 303)
            let event = try #require(try await onThread { try stream.next() })
            #expect(event.data.hasPrefix(event.id! + " /orders/\(paid)/status\n"))
            #expect(event.data.contains(#"data-view="Shipped""#))
            #expect(event.data.contains("1Z999AA10123456784"))
            stream.close()
        }
    }
}
