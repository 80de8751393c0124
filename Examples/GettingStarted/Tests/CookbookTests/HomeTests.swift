import Tessera
import TesseraTesting
import Testing

@testable import Cookbook

@Suite struct HomeTests {
    @Test func theHomePageShowsTheGreetingRegion() async throws {
        try await TestApp.make().test(.inProcess) { client in
            let page = try await client.send("/")
            #expect(page.status == 200)
            #expect(page.text.contains("<h1>Cookbook</h1>"))
            #expect(page.text.contains(#"<link rel="stylesheet" href="/css/app.css">"#), "in the app's layout")
            #expect(page.text.contains(#"data-region="greeting""#))
            let region = try await client.send("/greeting")
            #expect(region.status == 200)
            #expect(region.text.contains(#"<p class="greeting">Good "#))
        }
    }

    @Test(arguments: [(8, "Good morning"), (13, "Good afternoon"), (23, "Good evening"), (3, "Good evening")])
    func theGreetingFollowsTheHour(hour: Int, text: String) {
        #expect(GreetingService(hour: { hour }).greeting() == Greeting(text: text))
    }
}
