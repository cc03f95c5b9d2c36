import Foundation
import ObjectGraph
import Testing

/// Where a migration test keeps its store: a JSON file, a binary file, a SQLite file, an
/// `InMemoryStore` handed to a container with another model, or a PostgreSQL schema (when a
/// server is configured, and always in CI; see `PostgresTestStore`).
enum MigrationStoreKind: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case json, binary, sqlite, inMemory, postgres

    static var allCases: [MigrationStoreKind] {
        [.json, .binary, .sqlite, .inMemory] + (PostgresTestStore.isEnabled ? [.postgres] : [])
    }

    var testDescription: String { rawValue }
}

/// One store of a kind, reopened with different models.
final class MigrationFixture: Sendable {
    let kind: MigrationStoreKind
    let url: URL?
    let memory: InMemoryStore?
    /// The PostgreSQL schema of a `.postgres` fixture.
    let schema: String

    init(_ kind: MigrationStoreKind) {
        self.kind = kind
        schema = kind == .postgres ? PostgresTestStore.uniqueSchema() : ""
        switch kind {
        case .json: url = TemporaryDirectory.make().appendingPathComponent("people.json")
        case .binary: url = TemporaryDirectory.make().appendingPathComponent("people.ogdb")
        case .sqlite: url = TemporaryDirectory.make().appendingPathComponent("people.sqlite")
        case .inMemory, .postgres: url = nil
        }
        memory = kind == .inMemory ? InMemoryStore() : nil
    }

    func store(_ migration: MigrationOptions = .automatic) -> any PersistentStore {
        switch kind {
        case .json: JSONFileStore(url: url!, migration: migration)
        case .binary: BinaryFileStore(url: url!, migration: migration)
        case .sqlite: SQLiteStore(url: url!, migration: migration)
        case .inMemory: memory!
        case .postgres: PostgresTestStore.makeStore(schema: schema, migration: migration)
        }
    }

    func open(_ model: ManagedObjectModel, _ migration: MigrationOptions = .automatic) throws -> PersistentContainer {
        kind == .inMemory
            ? try PersistentContainer(model: model, store: store(), migration: migration)
            : try PersistentContainer(model: model, store: store(migration))
    }

    /// The file's bytes (for in-memory, none; for SQLite, the database file's, which a closed
    /// store has folded its write-ahead log into; for PostgreSQL, its tables' rows as text).
    func bytes() throws -> [UInt8] {
        if kind == .postgres { return try PostgresTestStore.contents(of: schema) }
        guard let url else { return [] }
        return Array(try Data(contentsOf: url))
    }

    /// The names in the store's directory that a crash or a migration could leave behind.
    func temporaryFiles() throws -> [String] {
        guard let url else { return [] }
        return try FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path)
            .filter { $0.hasPrefix(".objectgraph-tmp-") }
    }
}

/// Version 1 of a small model: people with pets.
enum PeopleV1 {
    static func model(uniqueEmail: Bool = false) throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            EntityDescription(
                name: "Person",
                attributes: [
                    AttributeDescription(name: "name", type: .string),
                    AttributeDescription(name: "age", type: .integer16),
                    AttributeDescription(name: "score", type: .integer32, isOptional: true),
                    AttributeDescription(name: "height", type: .float, isOptional: true),
                    AttributeDescription(name: "nickname", type: .string, isOptional: true),
                    AttributeDescription(name: "email", type: .string, isOptional: true),
                    AttributeDescription(name: "balance", type: .integer64, isOptional: true),
                ],
                relationships: [
                    RelationshipDescription(
                        name: "pets", destination: "Pet", inverse: "owner", isToMany: true, deleteRule: .cascade)
                ],
                uniquenessConstraints: uniqueEmail ? [["email"]] : []),
            EntityDescription(
                name: "Pet",
                attributes: [AttributeDescription(name: "name", type: .string)],
                relationships: [RelationshipDescription(name: "owner", destination: "Person", inverse: "pets")]),
        ])
    }

    /// Saves Ada (36, two pets), Brian (29, one pet, no nickname) and Cleo (41, no pets).
    static func seed(_ container: PersistentContainer) throws {
        let context = container.newContext()
        let rows: [(String, Int64, Int64?, String?, String)] = [
            ("Ada", 36, 90, "ada", "ada@example.com"), ("Brian", 29, nil, nil, "brian@example.com"),
            ("Cleo", 41, 75, "cleo", "ada@example.com"),
        ]
        for (name, age, score, nickname, email) in rows {
            let person = insert("Person", into: context)
            try person.setValue(name, forKey: "name")
            try person.setValue(age, forKey: "age")
            try person.setValue(score, forKey: "score")
            try person.setValue(nickname, forKey: "nickname")
            try person.setValue(email, forKey: "email")
            try person.setValue(Float(1.5), forKey: "height")
            try person.setValue(Int64(1000), forKey: "balance")
            let pets = name == "Ada" ? ["Rex", "Tom"] : name == "Brian" ? ["Fido"] : []
            for petName in pets {
                let pet = insert("Pet", into: context)
                try pet.setValue(petName, forKey: "name")
                try pet.setValue(person, forKey: "owner")
            }
        }
        try context.save()
    }
}

/// A new object of the entity named `entity`.
func insert(_ entity: String, into context: ManagedContext) -> ManagedObject {
    ManagedObject(entity: context.model.entity(named: entity)!, insertInto: context)
}

/// Every object of the entity named `entity`, by `key`.
func fetchAll(_ entity: String, _ context: ManagedContext, _ format: String? = nil, sortedBy key: String = "name")
    throws -> [ManagedObject]
{
    let request = FetchRequest<ManagedObject>(
        entityName: entity, predicate: try format.map { try FetchPredicate(format: $0) },
        sortDescriptors: [SortDescriptor(key: key)])
    return try context.fetch(request)
}
