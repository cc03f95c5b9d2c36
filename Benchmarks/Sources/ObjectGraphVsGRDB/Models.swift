import Foundation
import GRDB
import ObjectGraph

/// The row both sides store: prepared once, outside every timed region, with its UUID.
struct Input: Sendable {
    var name: String
    var price: Int64
    var weight: Double
    var createdAt: Date
    var uuid: UUID

    /// `count` rows; names start with one of 26 letters so that `BEGINSWITH 'a'` selects 1/26.
    static func make(count: Int, from first: Int = 0) -> [Input] {
        let letters = Array("abcdefghijklmnopqrstuvwxyz")
        return (first..<(first + count)).map { index in
            Input(
                name: "\(letters[index % 26]) item \(index)", price: Int64(index % 1_000),
                weight: Double(index) / 10, createdAt: Date(timeIntervalSinceReferenceDate: Double(index)),
                uuid: UUID())
        }
    }
}

/// The ObjectGraph entity. `uuid` has no initial value: the prepared UUID is assigned, as on the
/// GRDB side (an `= UUID()` default would cost a `/dev/urandom` read per object).
final class Item: ManagedObject {
    @Attribute var name = ""
    @Attribute var price: Int64 = 0
    @Attribute var weight = 0.0
    @Attribute var createdAt = Date(timeIntervalSinceReferenceDate: 0)
    @Attribute var uuid: UUID
}

/// The same entity with an index on `price` (W4 indexed).
final class IndexedItem: ManagedObject {
    @Attribute var name = ""
    @Attribute(indexed: true) var price: Int64 = 0
    @Attribute var weight = 0.0
    @Attribute var createdAt = Date(timeIntervalSinceReferenceDate: 0)
    @Attribute var uuid: UUID
}

/// The GRDB record, with hand-written row decoding and encoding (faster than Codable).
struct GRDBItem: FetchableRecord, PersistableRecord {
    static let databaseTableName = "item"
    var id: Int64?
    var name: String
    var price: Int64
    var weight: Double
    var createdAt: Date
    var uuid: UUID

    init(_ input: Input) {
        id = nil
        name = input.name
        price = input.price
        weight = input.weight
        createdAt = input.createdAt
        uuid = input.uuid
    }

    init(row: Row) throws {
        id = row["id"]
        name = row["name"]
        price = row["price"]
        weight = row["weight"]
        createdAt = row["createdAt"]
        uuid = row["uuid"]
    }

    func encode(to container: inout PersistenceContainer) throws {
        container["id"] = id
        container["name"] = name
        container["price"] = price
        container["weight"] = weight
        container["createdAt"] = createdAt
        container["uuid"] = uuid
    }

    static func createTable(_ db: Database, indexed: Bool) throws {
        try db.execute(
            sql: """
                CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT NOT NULL, price INTEGER NOT NULL,
                weight REAL NOT NULL, createdAt DATETIME NOT NULL, uuid BLOB NOT NULL)
                """)
        if indexed { try db.execute(sql: "CREATE INDEX item_price ON item(price)") }
    }
}

func fill(_ context: ManagedContext, _ inputs: [Input]) {
    for input in inputs {
        let item = Item(context: context)
        item.name = input.name
        item.price = input.price
        item.weight = input.weight
        item.createdAt = input.createdAt
        item.uuid = input.uuid
    }
}

func fillIndexed(_ context: ManagedContext, _ inputs: [Input]) {
    for input in inputs {
        let item = IndexedItem(context: context)
        item.name = input.name
        item.price = input.price
        item.weight = input.weight
        item.createdAt = input.createdAt
        item.uuid = input.uuid
    }
}

func insert(_ db: Database, _ inputs: [Input]) throws {
    for input in inputs { try GRDBItem(input).insert(db) }
}

/// A SQLite file in WAL mode with `synchronous=FULL` on the writer connection: every commit is
/// fsynced, as the binary store's. (GRDB sets `synchronous=NORMAL` when it turns WAL on, after
/// `prepareDatabase` runs, so the pragma is set on the writer afterwards and checked.)
func openPool(_ path: String) throws -> DatabasePool {
    let pool = try DatabasePool(path: path)
    let mode = try pool.writeWithoutTransaction { db in
        try db.execute(sql: "PRAGMA synchronous = FULL")
        return try Int.fetchOne(db, sql: "PRAGMA synchronous")
    }
    precondition(mode == 2, "synchronous is \(String(describing: mode)), not FULL")
    return pool
}
