import Tessera
import TesseraViews

/// `/`: a container page; its greeting is a region with a child controller of its own.
struct HomePageController: PageController {
    let greetings: GreetingService

    func load(_ context: RequestContext) async throws -> HomePage {
        HomePage(title: "Cookbook")
    }

    func render(_ page: HomePage, in context: RequestContext) -> Page {
        Page(title: page.title, body: context.render(HomeView.self, page))
    }

    func regions(for page: HomePage, in context: RequestContext) -> HomeView.Regions<Region> {
        HomeView.Regions(greeting: Region(source: HomeRoutes.greeting.path, controller: GreetingRegion(greetings: greetings)))
    }
}
