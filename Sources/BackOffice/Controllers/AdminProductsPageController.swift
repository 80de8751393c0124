import Catalog
import Foundation
import Tessera
import TesseraViews

/// `/admin/products?page=N`: every product by id, twenty a page, each with its stock and price
/// form. A form sent back with errors shows the page again, that row with its messages (422).
struct AdminProductsPageController: PageController {
    let catalog: CatalogService
    /// The product whose form came back, and what was sent.
    var returned: (productID: Int, page: Int, state: FormState)?

    struct Loaded: Sendable {
        var products: [Product]
        var page: Int
        var hasMore: Bool
    }

    func load(_ context: RequestContext) async throws -> Loaded {
        let page = try returned?.page ?? Self.page(in: context.request)
        let (products, hasMore) = try await catalog.productsByID(page: page, within: context.databaseBudget)
        return Loaded(products: products, page: page, hasMore: hasMore)
    }

    func render(_ loaded: Loaded, in context: RequestContext) -> Page {
        let list = BackOfficeRoutes.products.path
        let rows = loaded.products.map { product in
            let state = returned.flatMap { $0.productID == product.id ? $0.state : nil }
            return AdminProductsModel.Row(
                id: product.id, name: product.name, url: product.url, formURL: BackOfficeRoutes.adjustProduct.path(product.id),
                photoFormURL: BackOfficeRoutes.addPhoto.path(product.id),
                stock: state?.value("stock") ?? String(product.stock), expectedStock: product.stock,
                price: state?.value("price") ?? Self.plain(product.priceMinor),
                stockError: state?.error("stock"), priceError: state?.error("price"), page: loaded.page)
        }
        let model = AdminProductsModel(
            rows: rows, pageLabel: "Page \(loaded.page)",
            previousURL: loaded.page > 1 ? list + "?page=\(loaded.page - 1)" : nil,
            nextURL: loaded.hasMore ? list + "?page=\(loaded.page + 1)" : nil)
        return Page(
            title: "Products · Back office", body: context.render(AdminProductsView.self, model),
            status: returned == nil ? .ok : .unprocessableContent)
    }

    /// `?page=`: a positive number, 1 when absent.
    static func page(in request: Request) throws(HTTPError) -> Int {
        guard let raw = request.query["page"], !raw.isEmpty else { return 1 }
        guard let page = Int(raw), (1...1_000_000).contains(page) else { throw HTTPError(.badRequest, message: "A page is a number from 1.") }
        return page
    }

    /// `1250` → `12.50`: the price as the form takes it back.
    static func plain(_ minor: Int) -> String {
        "\(minor / 100)." + String(format: "%02d", minor % 100)
    }
}
