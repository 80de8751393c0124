public import GRDB

/// The demo catalog the first run creates: 5 categories of 8 products, each with an image in
/// `Public/images/products/`.
public enum CatalogSeed {
    /// The five demo categories; their ids are the seeded products' `categoryID`s.
    public static let categories = [
        Category(id: 1, slug: "lighting", name: "Lighting"),
        Category(id: 2, slug: "furniture", name: "Furniture"),
        Category(id: 3, slug: "kitchen", name: "Kitchen"),
        Category(id: 4, slug: "textiles", name: "Textiles"),
        Category(id: 5, slug: "stationery", name: "Stationery"),
    ]

    static let names: [[String]] = [
        [
            "Arc Floor Lamp", "Brass Desk Lamp", "Paper Pendant", "Glass Wall Sconce", "Reading Light", "Candle Lantern", "String Lights",
            "Opal Table Lamp",
        ],
        [
            "Oak Side Table", "Linen Armchair", "Walnut Bookshelf", "Folding Stool", "Rattan Bench", "Pine Dining Table", "Wall Shelf",
            "Low Coffee Table",
        ],
        ["Cast Iron Pan", "Stoneware Mugs", "Chef's Knife", "Olive Wood Board", "Enamel Kettle", "Glass Carafe", "Ceramic Bowls", "Copper Saucepan"],
        ["Wool Throw", "Linen Napkins", "Cotton Quilt", "Jute Rug", "Velvet Cushion", "Waffle Towels", "Table Runner", "Knitted Blanket"],
        ["Dot Grid Notebook", "Fountain Pen", "Brass Ruler", "Desk Organizer", "Letter Set", "Sketchbook", "Pencil Case", "Wall Calendar"],
    ]

    /// The forty demo products, eight per category, with their images in `Public/images/products/`.
    public static var products: [Product] {
        var products: [Product] = []
        for (categoryIndex, category) in categories.enumerated() {
            for (index, name) in names[categoryIndex].enumerated() {
                let id = categoryIndex * 8 + index + 1
                products.append(
                    Product(
                        id: id, categoryID: category.id, name: name,
                        summary: "A \(name.lowercased()) from our \(category.name.lowercased()) collection, made to last.",
                        priceMinor: 900 + (id * 737) % 24000, stock: id % 7 == 0 ? 0 : 3 + (id * 5) % 40,
                        imagePath: "/images/products/\(id).svg"
                    ))
            }
        }
        return products
    }

    /// A catalog of `count` products (at least the 40 demo ones, which come first, so the demo
    /// orders keep their meaning), the same for the same `seed`: names made of a finish, a
    /// material and a kind of thing from the product's category, with summaries, prices and
    /// stock drawn from a seeded generator. What `storefront seed --products N` inserts.
    public static func generated(count: Int, seed: UInt64 = 2026) -> [Product] {
        var random = SplitMix64(seed: seed)
        var products = Array(self.products.prefix(count))
        let finishes = ["Smoked", "Brushed", "Oiled", "Hand-thrown", "Woven", "Polished", "Matte", "Raw", "Glazed", "Washed", "Carved", "Hammered"]
        let materials = [
            "Oak", "Walnut", "Brass", "Linen", "Wool", "Stoneware", "Copper", "Cotton", "Ash", "Cork", "Glass", "Rattan", "Steel", "Clay",
        ]
        let kinds = [
            ["Lamp", "Pendant", "Sconce", "Lantern", "Shade", "Night Light"],
            ["Stool", "Bench", "Shelf", "Side Table", "Chair", "Cabinet"],
            ["Bowl", "Mug", "Board", "Kettle", "Carafe", "Skillet", "Spoon Set"],
            ["Throw", "Cushion", "Rug", "Napkins", "Quilt", "Towel Set"],
            ["Notebook", "Pen", "Ruler", "Tray", "Journal", "Card Set"],
        ]
        var id = products.count + 1
        while products.count < count {
            let categoryIndex = Int(random.next() % UInt64(categories.count))
            let kind = kinds[categoryIndex][Int(random.next() % UInt64(kinds[categoryIndex].count))]
            let name = "\(finishes[Int(random.next() % UInt64(finishes.count))]) \(materials[Int(random.next() % UInt64(materials.count))]) \(kind)"
            products.append(
                Product(
                    id: id, categoryID: categories[categoryIndex].id, name: name,
                    summary: "A \(name.lowercased()) from our \(categories[categoryIndex].name.lowercased()) collection, batch \(id).",
                    priceMinor: 500 + Int(random.next() % 50_000), stock: Int(random.next() % 9) == 0 ? 0 : Int(random.next() % 60) + 1,
                    imagePath: "/images/products/\((id - 1) % 40 + 1).svg"
                ))
            id += 1
        }
        return products
    }

    /// Inserts `products` and the categories into an empty catalog, in one transaction.
    public static func insert(_ products: [Product], into database: any DatabaseWriter) async throws {
        try await database.write { db in
            guard try Category.fetchCount(db) == 0 else { return }
            for category in categories { try category.insert(db) }
            for product in products { try product.insert(db) }
        }
    }

    /// Inserts the demo catalog when the catalog is empty.
    public static func seedIfEmpty(_ database: any DatabaseWriter) async throws {
        try await insert(products, into: database)
    }
}

/// A small seeded generator (SplitMix64): the same catalog on every machine for the same seed,
/// which Swift's system generator cannot promise.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
