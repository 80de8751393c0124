import Catalog
import Logging
import Orders
import Tessera

/// A product's new stock and price, by staff. The catalog publishes the change, so every open
/// product page shows it at once.
struct AdminProductActions {
    let catalog: CatalogService
    let photos: PhotoService

    func register(in routes: inout GuaranteedRoutes<StaffOnly>) {
        let catalog = self.catalog, photos = self.photos
        // A photo: checked and turned into its variants by the photo service, whose refusals
        // (not an image, too many pixels, damaged) are 4xx pages; nothing is stored then.
        routes.action(BackOfficeRoutes.addPhoto) { id, context, staff in
            let product = try await catalog.product(id: id, within: context.databaseBudget)
            guard let file = try context.request.form().file("photo"), file.size > 0 else {
                throw HTTPError(.unprocessableContent, message: "Choose a photo to upload.")
            }
            let photo = try await photos.add(file, to: id, within: context.databaseBudget)
            context.logger.notice(
                "product photo added",
                metadata: ["product_id": "\(id)", "photo": "\(photo.fingerprint)", "bytes": "\(file.size)", "staff": "\(staff.name)"])
            return context.redirect(to: BackOfficeRoutes.products.path, flash: "\(product.name) has a new photo.")
        }
        routes.action(BackOfficeRoutes.adjustProduct) { id, context, staff in
            _ = try await catalog.product(id: id, within: context.databaseBudget)  // an unknown product is a 404 before any form check
            switch try context.decodeForm(ProductAdjustmentForm.self) {
            case .invalid(let state):
                let page = Int(state.value("page")).flatMap { (1...1_000_000).contains($0) ? $0 : nil } ?? 1  // as the form reads it
                return try await context.render(AdminProductsPageController(catalog: catalog, returned: (id, page, state)))
            case .valid(let form):
                let product = try await catalog.adjust(
                    productID: id, stock: form.stock, priceMinor: form.priceMinor, expectedStock: form.expectedStock, within: context.databaseBudget)
                context.logger.notice(
                    "product adjusted",
                    metadata: [
                        "product_id": "\(id)", "stock": "\(product.stock)", "price_minor": "\(product.priceMinor)", "staff": "\(staff.name)",
                    ])
                return context.redirect(
                    to: BackOfficeRoutes.products.path + "?page=\(form.page)",
                    flash: "\(product.name): \(product.stock) in stock at \(product.price).")
            }
        }
    }
}
