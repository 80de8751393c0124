import Tessera
import TesseraViews

/// `/products/{id}`: a container. Its regions are the detail, the related products, and whatever
/// other modules provide for the catalog's extension points (add to cart, your purchases).
struct ProductPageController: PageController {
    let catalog: CatalogService
    let id: Int

    func load(_ context: RequestContext) async throws -> Product {
        do { return try await catalog.product(id: id) } catch { throw error.httpError }
    }

    func render(_ product: Product, in context: RequestContext) -> Page {
        Page(title: product.name, body: ProductPageView.render(product))
    }

    func regions(for product: Product, in context: RequestContext) -> [Region] {
        var regions = [
            Region("detail", source: CatalogRoutes.detail.path(id), controller: ProductDetailRegion(catalog: catalog, id: id), isRequired: true),
            Region("related", source: CatalogRoutes.related.path(id), controller: RelatedProductsRegion(catalog: catalog, id: id)),
        ]
        for (name, key) in [("add-to-cart", CatalogRegions.addToCart), ("purchases", CatalogRegions.purchases)] {
            if let provided = context.routes.region(name, providedFor: key, input: product, in: context) {
                regions.append(provided)
            }
        }
        return regions
    }
}

/// The product itself: picture, price, stock, description.
struct ProductDetailRegion: RegionController {
    let catalog: CatalogService
    let id: Int

    func render(in context: RequestContext) async throws -> HTMLOutput {
        do { return ProductDetailView.render(try await catalog.product(id: id)) } catch { throw error.httpError }
    }
}

/// Other products of the same category.
struct RelatedProductsRegion: RegionController {
    let catalog: CatalogService
    let id: Int

    func render(in context: RequestContext) async throws -> HTMLOutput {
        let product: Product
        do { product = try await catalog.product(id: id) } catch { throw error.httpError }
        return RelatedProductsView.render(try await catalog.related(to: product))
    }

    func failureFragment(for error: any Error) -> HTMLOutput {
        var output = HTMLOutput(capacity: 96)
        output.write(static: "<p class=\"region-failed\" role=\"status\">Related products are unavailable right now.</p>")
        return output
    }
}
