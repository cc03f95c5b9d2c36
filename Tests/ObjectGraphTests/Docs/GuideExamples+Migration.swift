// The examples of Migration.md, compiled here; MigrationGuideTests checks that every Swift block
// of the guide is one of these regions, and that the examples do what the guide says.
import Foundation
import ObjectGraph
import ObjectGraphTesting
import Testing

// Migration example 1 begin
// Version 1 had an entity "Journey" with "title" (String), "distance" (Int32) and "legs".
final class Trip: ManagedObject {
    override class var renamingIdentifier: String? { "Journey" }
    @Attribute(renamingIdentifier: "title") var name = ""
    @Attribute var distance: Double = 0  // was Int32: widened
    @Attribute var rating: Int64 = 3  // new and required: existing trips get 3
    @Attribute var notes: String?  // new and optional: existing trips get nil
    @Relationship(inverse: "trip", renamingIdentifier: "legs") var stops: Set<Stop>
}

final class Stop: ManagedObject {
    @Attribute var place = ""
    @Relationship(inverse: "stops") var trip: Trip?
}

func openTrips(at url: URL) throws -> PersistentContainer {
    // A store written with version 1 is migrated as it opens, once.
    try PersistentContainer(model: try ManagedObjectModel(Trip.self, Stop.self), storeDescription: .jsonFile(url))
}
// Migration example 1 end

// Migration example 3 begin
func openStore(at url: URL, model: ManagedObjectModel, isDevelopment: Bool) throws -> PersistentContainer {
    var description = StoreDescription.binaryFile(url)
    description.migration = isDevelopment ? .eraseOnSchemaChange : .automatic
    description.migration.keepsBackup = true  // the old file stays at <store>.backup
    description.migration.progress = { progress in
        print("migrating: \(Int(progress.fractionCompleted * 100))%")
    }
    return try PersistentContainer(model: model, storeDescription: description)
}
// Migration example 3 end

// Migration example 2 begin
func openOrExplain(at url: URL) -> PersistentContainer? {
    do {
        return try openTrips(at: url)
    } catch let error as PersistenceError where error.code == .modelMismatch {
        // The file is as it was. error.entityName and error.key name the first problem;
        // error.detailedErrors lists every one.
        print("Cannot migrate \(error.entityName ?? "")\(error.key.map { ".\($0)" } ?? ""): \(error.message)")
        return nil
    } catch {
        return nil
    }
}
// Migration example 2 end

// Migration example 4 begin
enum ContactsV1 {
    static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            EntityDescription(name: "Contact", attributes: [AttributeDescription(name: "name", type: .string)])
        ])
    }
}

enum ContactsV2 {
    // Adds the parts of the name, which a custom stage fills in.
    static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            EntityDescription(
                name: "Contact",
                attributes: [
                    AttributeDescription(name: "name", type: .string),
                    AttributeDescription(name: "givenName", type: .string, isOptional: true),
                    AttributeDescription(name: "familyName", type: .string, isOptional: true),
                ])
        ])
    }
}

enum ContactsV3 {
    // Drops the whole name; the parts become required.
    static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            EntityDescription(
                name: "Contact",
                attributes: [
                    AttributeDescription(name: "givenName", type: .string),
                    AttributeDescription(name: "familyName", type: .string),
                ])
        ])
    }
}

enum ContactsMigrationPlan: SchemaMigrationPlan {
    static var versions: [ManagedObjectModel] {
        get throws { [try ContactsV1.model(), try ContactsV2.model(), try ContactsV3.model()] }
    }

    static var stages: [MigrationStage] {
        get throws {
            [
                .custom(
                    from: try ContactsV1.model(), to: try ContactsV2.model(), willMigrate: nil,
                    didMigrate: { context in
                        // A context on version 2, holding every contact; saved when this returns.
                        for contact in try context.fetch(FetchRequest<ManagedObject>(entityName: "Contact")) {
                            let name = try contact.value(forKey: "name") as? String ?? ""
                            let parts = name.split(separator: " ", maxSplits: 1).map(String.init)
                            try contact.setValue(parts.first ?? "", forKey: "givenName")
                            try contact.setValue(parts.count > 1 ? parts[1] : "", forKey: "familyName")
                        }
                    }),
                .lightweight(from: try ContactsV2.model(), to: try ContactsV3.model()),
            ]
        }
    }
}

func openContacts(at url: URL) throws -> PersistentContainer {
    try PersistentContainer(migrationPlan: ContactsMigrationPlan.self, storeDescription: .jsonFile(url))
}
// Migration example 4 end

// Migration example 5 begin
func openWithVersions(_ store: any PersistentStore) throws -> PersistentContainer {
    // Oldest first; each step to the next version is inferred, so renames chain across versions.
    try PersistentContainer(
        modelVersions: [try ContactsV1.model(), try ContactsV2.model(), try ContactsV3.model()], store: store)
}
// Migration example 5 end

// Migration example 6 begin
@Test func splitsNamesIntoTheirParts() throws {
    let container = try PersistentContainer.migratedForTesting(
        ContactsMigrationPlan.self, from: try ContactsV1.model(), in: .jsonFile
    ) { context in
        let contact = ManagedObject(entity: context.model.entity(named: "Contact")!, insertInto: context)
        try contact.setValue("Ada King Lovelace", forKey: "name")
    }
    let contact = try #require(
        try container.newContext().fetch(FetchRequest<ManagedObject>(entityName: "Contact")).first)
    #expect(try contact.value(forKey: "givenName") as? String == "Ada")
    #expect(try contact.value(forKey: "familyName") as? String == "King Lovelace")
}
// Migration example 6 end

// Migration example 7 begin
func previewMigration(of url: URL, to model: ManagedObjectModel) throws -> [String] {
    let stored = try StoreFileInspector.snapshot(of: url)
    return try SchemaMigration.changes(migrating: stored, to: model).map(\.description)
    // ["entity 'Trip' renamed from 'Journey' (2 objects)", "property 'Trip.rating' required attribute added; …"]
}
// Migration example 7 end

// Migration example 8 begin
func openSharedLibrary(at url: URL, model: ManagedObjectModel) throws -> PersistentContainer {
    // A changed model is migrated in one SQLite transaction; the old data stays at <store>.backup.
    try PersistentContainer(model: model, store: SQLiteStore(url: url, migration: MigrationOptions(keepsBackup: true)))
}
// Migration example 8 end

@Suite struct MigrationGuideTests {
    @Test func everyBlockIsCompiledCode() throws {
        let text = try String(
            contentsOf: ReadmeTests.root.appendingPathComponent("Docs/Migration.md"), encoding: .utf8)
        let blocks = text.components(separatedBy: "```swift\n").dropFirst().map {
            String($0.components(separatedBy: "\n```").first ?? "")
        }
        #expect(blocks.count == 8)
        for (index, block) in blocks.enumerated() {
            let region = try? ReadmeTests.region(
                "Migration example \(index + 1)", in: "Tests/ObjectGraphTests/Docs/GuideExamples+Migration.swift")
            #expect(region == block, "block \(index + 1) of Docs/Migration.md differs from its compiled region")
        }
    }

    @Test func aSharedSQLiteLibraryMigratesAndKeepsItsBackup() throws {
        let url = TemporaryDirectory.make().appendingPathComponent("library.sqlite")
        let v1 = try ManagedObjectModel(entities: [
            EntityDescription(name: "Book", attributes: [AttributeDescription(name: "title", type: .string)])
        ])
        do {
            let context = try openSharedLibrary(at: url, model: v1).newContext()
            try ManagedObject(entity: v1.entity(named: "Book")!, insertInto: context).setValue("Emma", forKey: "title")
            try context.save()
        }
        var book = v1.entities[0]
        book.attributes.append(AttributeDescription(name: "year", type: .integer64, defaultValue: 1815))
        let v2 = try ManagedObjectModel(entities: [book])
        let books = try openSharedLibrary(at: url, model: v2).newContext().fetch(
            FetchRequest<ManagedObject>(entityName: "Book"))
        #expect(try books.map { try $0.value(forKey: "year") as? Int64 } == [1815])
        let backup = try StoreFileInspector.model(of: MigrationOptions.backupURL(for: url))
        #expect(backup.schemaDifferences(from: v1).isEmpty)
    }

    @Test func tripsOfVersionOneOpenWithVersionTwo() throws {
        let journey = EntityDescription(
            name: "Journey",
            attributes: [
                AttributeDescription(name: "title", type: .string),
                AttributeDescription(name: "distance", type: .integer32),
            ],
            relationships: [
                RelationshipDescription(name: "legs", destination: "Stop", inverse: "trip", isToMany: true)
            ])
        let stop = EntityDescription(
            name: "Stop", attributes: [AttributeDescription(name: "place", type: .string)],
            relationships: [RelationshipDescription(name: "trip", destination: "Journey", inverse: "legs")])
        let v1 = try ManagedObjectModel(entities: [journey, stop])
        let url = TemporaryDirectory.make().appendingPathComponent("trips.json")
        do {
            let context = try PersistentContainer(model: v1, storeDescription: .jsonFile(url)).newContext()
            let trip = ManagedObject(entity: v1.entity(named: "Journey")!, insertInto: context)
            try trip.setValue("Alps", forKey: "title")
            try trip.setValue(Int32(420), forKey: "distance")
            let zermatt = ManagedObject(entity: v1.entity(named: "Stop")!, insertInto: context)
            try zermatt.setValue("Zermatt", forKey: "place")
            try zermatt.setValue(trip, forKey: "trip")
            try context.save()
        }
        let changes = try previewMigration(of: url, to: try ManagedObjectModel(Trip.self, Stop.self))
        #expect(changes.contains("entity 'Trip' renamed from 'Journey' (1 object)"))
        let context = try #require(openOrExplain(at: url)).newContext()
        let trips = try context.fetch(Trip.fetchRequest())
        #expect(trips.map(\.name) == ["Alps"])
        #expect(trips.map(\.distance) == [420])
        #expect(trips.map(\.rating) == [3])
        #expect(trips.first?.stops.map(\.place) == ["Zermatt"])
    }

    @Test func optionsOpenAStore() throws {
        let url = TemporaryDirectory.make().appendingPathComponent("trips.ogdb")
        let model = try ManagedObjectModel(Trip.self, Stop.self)
        #expect(try openStore(at: url, model: model, isDevelopment: true).committedSnapshot().count == 0)
    }

    @Test func contactsMigrateThroughThePlan() throws {
        let url = TemporaryDirectory.make().appendingPathComponent("contacts.json")
        do {
            let v1 = try ContactsV1.model()
            let context = try PersistentContainer(model: v1, storeDescription: .jsonFile(url)).newContext()
            try ManagedObject(entity: v1.entity(named: "Contact")!, insertInto: context).setValue(
                "Grace Hopper", forKey: "name")
            try context.save()
        }
        let contact = try #require(
            try openContacts(at: url).newContext().fetch(FetchRequest<ManagedObject>(entityName: "Contact")).first)
        #expect(try contact.value(forKey: "familyName") as? String == "Hopper")
    }
}
