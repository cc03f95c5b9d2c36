import Foundation
import ObjectGraph
import Testing

/// Runs the Xcode model examples of PortingFromCoreData.md on the Garden fixture.
@Suite struct XcodeModelGuideTests {
    private let garden = XcodeModelFixtures.url("Garden.xcdatamodeld")

    @Test func untypedContainerStoresObjectsOfTheCurrentVersion() throws {
        let store = TemporaryDirectory.make().appendingPathComponent("garden.ogdb")
        do {
            let container = try openGarden(model: garden, store: store)
            #expect(container.model.entity(named: "Crop")?.attributesByName["rows"] != nil)
            try plantUntyped(in: container)
        }
        let container = try openGarden(model: garden, store: store)
        let context = container.newContext()
        let crops = try context.fetch(FetchRequest<ManagedObject>(entityName: "Crop"))
        #expect(try crops.map { try $0.value(forKey: "variety") as? String } == ["Kale"])
        #expect(try crops.map { try $0.value(forKey: "rows") as? Int16 } == [1])  // the model's default
        #expect(try (crops[0].value(forKey: "bed") as? ManagedObject)?.value(forKey: "name") as? String == "North")
    }

    @Test func generatedClassesBindAndFetchTyped() throws {
        let store = TemporaryDirectory.make().appendingPathComponent("garden.ogdb")
        do {
            let container = try openGarden(model: garden, store: store)
            try plantUntyped(in: container)
        }
        let container = try openTypedGarden(model: garden, store: store)
        let context = container.newContext()
        let crop = try sow("Chard", inBedNamed: "North", context: context)
        #expect(crop.bed?.name == "North")
        let reader = container.newContext()
        let beds = try reader.fetch(Bed.fetchRequest())
        #expect(beds.map(\.name) == ["North"])
        #expect(beds[0].crops.map(\.variety).sorted() == ["Chard", "Kale"])
        #expect(beds[0].area == 1)
    }

    @Test func generatedClassesMakeTheSameSchemaAsTheModel() throws {
        let imported = try ManagedObjectModel(contentsOf: garden)
        let typed = try ManagedObjectModel(Bed.self, Crop.self)
        #expect(imported.entities == typed.entities)
    }

    @Test func versionsAreListedOldestFirst() throws {
        #expect(try gardenVersionNames(garden) == ["Garden", "Garden 2"])
    }
}
