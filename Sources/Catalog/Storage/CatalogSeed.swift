import GRDB

/// The demo catalog the first run creates: 5 categories of 8 products, each with an image in
/// `Public/images/products/`.
public enum CatalogSeed {
    public static let categories = [
        Category(id: 1, slug: "lighting", name: "Lighting"),
        Category(id: 2, slug: "furniture", name: "Furniture"),
        Category(id: 3, slug: "kitchen", name: "Kitchen"),
        Category(id: 4, slug: "textiles", name: "Textiles"),
        Category(id: 5, slug: "stationery", name: "Stationery"),
    ]

    static let names: [[String]] = [
        ["Arc Floor Lamp", "Brass Desk Lamp", "Paper Pendant", "Glass Wall Sconce", "Reading Light", "Candle Lantern", "String Lights", "Opal Table Lamp"],
        ["Oak Side Table", "Linen Armchair", "Walnut Bookshelf", "Folding Stool", "Rattan Bench", "Pine Dining Table", "Wall Shelf", "Low Coffee Table"],
        ["Cast Iron Pan", "Stoneware Mugs", "Chef's Knife", "Olive Wood Board", "Enamel Kettle", "Glass Carafe", "Ceramic Bowls", "Copper Saucepan"],
        ["Wool Throw", "Linen Napkins", "Cotton Quilt", "Jute Rug", "Velvet Cushion", "Waffle Towels", "Table Runner", "Knitted Blanket"],
        ["Dot Grid Notebook", "Fountain Pen", "Brass Ruler", "Desk Organizer", "Letter Set", "Sketchbook", "Pencil Case", "Wall Calendar"],
    ]

    public static var products: [Product] {
        var products: [Product] = []
        for (categoryIndex, category) in categories.enumerated() {
            for (index, name) in names[categoryIndex].enumerated() {
                let id = categoryIndex * 8 + index + 1
                products.append(Product(
                    id: id, categoryID: category.id, name: name,
                    summary: "A \(name.lowercased()) from our \(category.name.lowercased()) collection, made to last.",
                    priceMinor: 900 + (id * 737) % 24000, stock: id % 7 == 0 ? 0 : 3 + (id * 5) % 40,
                    imagePath: "/images/products/\(id).svg"
                ))
            }
        }
        return products
    }

    /// Inserts the demo catalog when the catalog is empty.
    public static func seedIfEmpty(_ database: any DatabaseWriter) async throws {
        try await database.write { db in
            guard try Category.fetchCount(db) == 0 else { return }
            for category in categories { try category.insert(db) }
            for product in products { try product.insert(db) }
        }
    }
}
