// README testing begin
import ObjectGraph
import Testing

final class Plant: ManagedObject {  // a model class of your app
    @Attribute var name = ""
    @Attribute var isWatered = false
}

struct Gardener {  // the code under test gets its context injected
    let context: ManagedContext

    func water(_ plant: Plant) throws {
        plant.isWatered = true
        try context.saveIfNeeded()
    }
}

@Suite struct GardenerTests {
    let context: ManagedContext

    init() throws {  // a fresh, isolated in-memory store for every test
        let model = try ManagedObjectModel(Plant.self)
        context = try PersistentContainer(model: model, storeDescription: .inMemory).newContext()
    }

    @Test func wateringIsSaved() throws {
        let fern = Plant(context: context)
        fern.name = "fern"
        try Gardener(context: context).water(fern)
        #expect(!context.hasChanges)
        #expect(try context.fetch(Plant.fetchRequest()).first?.isWatered == true)
    }
}
// README testing end
