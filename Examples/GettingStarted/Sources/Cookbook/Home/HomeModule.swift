public import Tessera

/// The home page: its one entry point, which the route table registers.
public struct HomeModule: FeatureModule {
    let greetings: GreetingService

    public init(greetings: GreetingService) {
        self.greetings = greetings
    }

    public func register(in app: inout ApplicationBuilder) {
        let greetings = self.greetings
        app.routes.page(HomeRoutes.home) { _, _ in HomePageController(greetings: greetings) }
        app.routes.fragment(HomeRoutes.greeting) { _, _ in GreetingRegion(greetings: greetings) }
    }
}
