import Foundation
import ObjectGraph
import Testing

@Suite struct MigrateCommandTests {
    /// A store like `StoreFixtures.makeStore`'s whose schema has one more optional attribute and
    /// no `Sample` entity.
    static func newerStore(_ kind: StoreFileKind) throws -> URL {
        var fruit = StoreFixtures.fruit
        fruit.attributes.append(AttributeDescription(name: "origin", type: .string, isOptional: true))
        let model = try ManagedObjectModel(entities: [fruit, StoreFixtures.basket])
        let url = TemporaryDirectory.make().appendingPathComponent(kind == .json ? "v2.json" : "v2.store")
        _ = try PersistentContainer(model: model, storeDescription: StoreFixtures.storeDescription(kind, url))
        return url
    }

    // MARK: - diff

    @Test(arguments: StoreFileKind.allCases)
    func diffListsTheSchemaDifferences(kind: StoreFileKind) throws {
        let old = try StoreFixtures.makeStore(kind)
        let run = objectgraph("diff", old.path, try Self.newerStore(kind).path)
        #expect(run.status == 1)
        #expect(
            run.output == "entity 'Sample' is in the store but not in the model\n"
                + "attribute 'Fruit.origin' is in the model but not in the store\n")
        #expect(objectgraph("diff", old.path, old.path).output == "the schemas match\n")
    }

    // MARK: - migrate

    @Test(arguments: StoreFileKind.allCases)
    func dryRunPrintsEachChangeWithItsObjectsAndWritesNothing(kind: StoreFileKind) throws {
        let old = try StoreFixtures.makeStore(kind)
        let before = StoreFixtures.bytes(old)
        let run = objectgraph("migrate", old.path, "--to", try Self.newerStore(kind).path, "--dry-run")
        #expect(run.status == 0)
        #expect(
            run.output.contains(
                "property 'Fruit.origin' optional attribute added; existing objects get no value (2 objects)\n"))
        #expect(run.output.contains("entity 'Sample' removed, with its objects (1 object)\n"))
        #expect(StoreFixtures.bytes(old) == before)
    }

    @Test(arguments: StoreFileKind.allCases)
    func migrateRewritesTheStoreAndReportsProgress(kind: StoreFileKind) throws {
        let old = try StoreFixtures.makeStore(kind)
        let newer = try Self.newerStore(kind)
        let run = objectgraph("migrate", old.path, "--to", newer.path, "--backup")
        #expect(run.status == 0, "\(run.error)")
        #expect(run.output.hasSuffix("migrated \(old.path): 4 objects\n"))
        #expect(run.error.contains("migrating: 4 of 4 objects"))
        #expect(objectgraph("diff", old.path, newer.path).status == 0)
        #expect(FileManager.default.fileExists(atPath: old.path + ".backup"))
        #expect(objectgraph("migrate", old.path, "--to", newer.path).output.hasPrefix("nothing to migrate"))
    }

    @Test(arguments: [StoreFileKind.json, .sqlite])
    func anImpossibleMigrationChangesNothing(kind: StoreFileKind) throws {
        let old = try StoreFixtures.makeStore(kind)
        var fruit = StoreFixtures.fruit
        fruit.attributes[1].type = .integer16
        let url = TemporaryDirectory.make().appendingPathComponent(kind == .json ? "narrow.json" : "narrow.sqlite")
        _ = try PersistentContainer(
            model: try ManagedObjectModel(entities: [fruit, StoreFixtures.basket, StoreFixtures.sample]),
            storeDescription: StoreFixtures.storeDescription(kind, url))
        let before = StoreFixtures.bytes(old)
        let run = objectgraph("migrate", old.path, "--to", url.path)
        #expect(run.status == 1)
        #expect(run.error.contains("'Fruit.price' changes from integer64 to integer16"))
        #expect(StoreFixtures.bytes(old) == before)
    }
}
