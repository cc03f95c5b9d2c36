import Foundation
import ObjectGraph

/// The model of the predicate tests: every attribute kind, to-one chains and to-many sets.
final class Product: ManagedObject {
    @Attribute var name = ""
    @Attribute var note: String?
    @Attribute var price: Int64 = 0
    @Attribute var small: Int16 = 0
    @Attribute var weight = 0.0
    @Attribute var ratio: Float = 0
    @Attribute var cost = Decimal(0)
    @Attribute var inStock = false
    @Attribute var added = Date(timeIntervalSinceReferenceDate: 0)
    @Attribute var code: UUID?
    @Attribute var link: URL?
    @Attribute var blob: Data?
    @Attribute var optionalPrice: Int64?
    @Relationship(inverse: "products") var shelf: Shelf?
    @Relationship(inverse: "products") var labels: Set<Label>
}

final class Shelf: ManagedObject {
    @Attribute var title = ""
    @Attribute var floor: Int64 = 0
    @Relationship(inverse: "shelf") var products: Set<Product>
    @Relationship(inverse: "shelves") var shop: Shop?
}

final class Shop: ManagedObject {
    @Attribute var city = ""
    @Relationship(inverse: "shop") var shelves: Set<Shelf>
}

final class Label: ManagedObject {
    @Attribute var text = ""
    @Attribute var rank: Int64 = 0
    @Relationship(inverse: "labels") var products: Set<Product>
}

enum PredicateFixtureData {
    static let model = try! ManagedObjectModel(Product.self, Shelf.self, Shop.self, Label.self)
    static let uuid1 = UUID(uuidString: "00000000-0000-0000-0000-000000000001")!
    static let uuid2 = UUID(uuidString: "00000000-0000-0000-0000-000000000002")!
    static let appleURL = URL(string: "https://a.example/apple")!

    /// Product names in key (insertion) order.
    static let names = [
        "apple", "Apple Pie", "banana", "Ärger", "café", "CAFE", "りんご", "", "max", "min", "nan", "straße",
        "e\u{301}clair", "emoji 🍎",
    ]

    /// Every name except the given ones, in key order.
    static func names(except excluded: String...) -> [String] {
        names.filter { !excluded.contains($0) }
    }
}

/// A fresh store holding the fixture: 14 products on three shelves in two shops, with labels.
struct PredicateFixture {
    let container: PersistentContainer
    let context: ManagedContext

    /// Builds the fixture in the store `storeDescription` names (a fresh in-memory store by
    /// default); with `save` false every object stays a pending insert.
    init(save: Bool = true, storeDescription: StoreDescription = SharedSuiteStore.description()) throws {
        container = try PersistentContainer(model: PredicateFixtureData.model, storeDescription: storeDescription)
        context = container.newContext()
        let paris = Shop(context: context)
        paris.city = "Paris"
        let berlin = Shop(context: context)
        berlin.city = "Berlin"
        let top = makeShelf("Top", floor: 1, shop: paris)
        let bottom = makeShelf("Bottom", floor: 0, shop: berlin)
        let side = makeShelf("Side", floor: 2, shop: nil)
        let red = makeLabel("red", rank: 1)
        let fruit = makeLabel("fruit", rank: 2)
        let sweet = makeLabel("sweet", rank: 3)
        let yellow = makeLabel("yellow", rank: 4)
        typealias Row = (
            name: String, price: Int64, small: Int16, weight: Double, cost: String, inStock: Bool, added: Double,
            note: String?, optionalPrice: Int64?, shelf: Shelf?, labels: Set<Label>
        )
        let rows: [Row] = [
            ("apple", 100, 1, 0.5, "1.10", true, 1000, "fresh", 5, top, [red, fruit]),
            ("Apple Pie", 250, 2, 1.5, "2.50", false, 2000, nil, nil, top, [sweet]),
            ("banana", 80, 3, 0.2, "0.80", true, 3000, "", 0, bottom, [fruit, yellow]),
            ("Ärger", 200, 4, 2.0, "2", false, 4000, "Ä", nil, bottom, []),
            ("café", 150, 5, 1.0, "1.5", true, 5000, "Café au lait", nil, nil, []),
            ("CAFE", 150, 6, 1.0, "1.5", false, 6000, "CAFE", nil, nil, [sweet]),
            ("りんご", 120, 7, 0.3, "1.2", true, 7000, "林檎", 120, side, [red]),
            ("", 0, 0, 0, "0", false, 0, nil, nil, nil, []),
            ("max", .max, .max, 1e308, "0", false, 9000, nil, nil, nil, []),
            ("min", .min, .min, -1.5, "0", false, -9000, nil, nil, nil, []),
            ("nan", 1, 11, .nan, "0", false, 11000, nil, nil, nil, []),
            ("straße", 300, 12, 3.25, "3", true, 12000, "Straße", nil, nil, []),
            ("e\u{301}clair", 175, 13, 0.75, "1.75", true, 13000, nil, nil, nil, []),
            ("emoji 🍎", 99, 14, 0.99, "0.99", true, 14000, "🍎", nil, nil, []),
        ]
        for row in rows {
            let product = Product(context: context)
            product.name = row.name
            product.price = row.price
            product.small = row.small
            product.weight = row.weight
            product.cost = Decimal(string: row.cost, locale: Locale(identifier: "en_US_POSIX"))!
            product.inStock = row.inStock
            product.added = Date(timeIntervalSinceReferenceDate: row.added)
            product.note = row.note
            product.optionalPrice = row.optionalPrice
            product.shelf = row.shelf
            product.labels = row.labels
        }
        let apple = product("apple")
        apple.ratio = 0.25
        apple.code = PredicateFixtureData.uuid1
        apple.link = PredicateFixtureData.appleURL
        apple.blob = Data([1, 2])
        product("banana").code = PredicateFixtureData.uuid2
        if save { try context.save() }
    }

    /// The fixture as a new container reads it back from the store `storeDescription` names,
    /// where an earlier fixture saved it.
    init(reopening storeDescription: StoreDescription) throws {
        container = try PersistentContainer(model: PredicateFixtureData.model, storeDescription: storeDescription)
        context = container.newContext()
    }

    private func makeShelf(_ title: String, floor: Int64, shop: Shop?) -> Shelf {
        let shelf = Shelf(context: context)
        shelf.title = title
        shelf.floor = floor
        shelf.shop = shop
        return shelf
    }

    private func makeLabel(_ text: String, rank: Int64) -> Label {
        let label = Label(context: context)
        label.text = text
        label.rank = rank
        return label
    }

    func product(_ name: String) -> Product {
        try! context.fetch(Product.fetchRequest()).first { $0.name == name }!
    }

    func shelf(_ title: String) -> Shelf {
        try! context.fetch(Shelf.fetchRequest()).first { $0.title == title }!
    }

    func label(_ text: String) -> Label {
        try! context.fetch(Label.fetchRequest()).first { $0.text == text }!
    }

    /// The names of the products a predicate selects, in key order.
    func names(matching predicate: FetchPredicate) throws -> [String] {
        try context.fetch(FetchRequest<Product>(predicate: predicate)).map(\.name)
    }
}
