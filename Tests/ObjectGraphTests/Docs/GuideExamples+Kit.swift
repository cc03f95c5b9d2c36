// The code of GettingStarted.md, Testing.md, Stores.md and PortingFromCoreData.md, compiled here;
// GuideTests checks that every Swift block of a guide is one of these regions, and runs them.
import Foundation
import ObjectGraph
import ObjectGraphTesting
import Testing
import XCTest

// GettingStarted example 1 begin
final class Recipe: ManagedObject {
    @Attribute var title = ""
    @Attribute(minimum: 1) var servings: Int16 = 2
    @Attribute var createdAt = Date()
    @Relationship(inverse: "recipe", deleteRule: .cascade) var ingredients: [Ingredient]
}

final class Ingredient: ManagedObject {
    @Attribute var name = ""
    @Attribute var grams = 0.0
    @Relationship(inverse: "ingredients") var recipe: Recipe?
}
// GettingStarted example 1 end

// GettingStarted example 2 begin
func cookbook(at url: URL) throws -> [String] {
    let model = try ManagedObjectModel(Recipe.self, Ingredient.self)
    let container = try PersistentContainer(model: model, storeDescription: .binaryFile(url))
    let context = container.newContext()

    let pancakes = Recipe(context: context)
    pancakes.title = "Pancakes"
    for (name, grams) in [("flour", 200.0), ("milk", 300.0), ("egg", 55.0)] {
        let ingredient = Ingredient(context: context)
        ingredient.name = name
        ingredient.grams = grams
        ingredient.recipe = pancakes  // pancakes.ingredients grows, in order
    }
    try context.save()

    pancakes.servings = 4  // update
    try context.saveIfNeeded()

    let recipes = try context.fetch(Recipe.fetchRequest())
    return recipes.map { "\($0.title) for \($0.servings): \($0.ingredients.map(\.name).joined(separator: ", "))" }
}
// GettingStarted example 2 end

// GettingStarted example 3 begin
func countRecipesInTheBackground(_ container: PersistentContainer) async throws -> Int {
    try await container.performBackgroundTask { context in
        try context.count(for: Recipe.fetchRequest())
    }
}
// GettingStarted example 3 end

// Testing example 1 begin
final class Habit: ManagedObject {
    @Attribute var name = ""
    @Attribute var streak: Int64 = 0
}

/// The code under test receives its context: no shared container, no singleton.
struct HabitTracker {
    let context: ManagedContext

    func start(_ name: String) throws -> Habit {
        let habit = Habit(context: context)
        habit.name = name
        try context.save()
        return habit
    }

    func checkIn(_ habit: Habit) throws {
        habit.streak += 1
        do {
            try context.save()
        } catch {
            context.rollback()  // keep the screen consistent with the store
            throw error
        }
    }
}
// Testing example 1 end

// Testing example 2 begin
@Suite struct HabitTrackerTests {
    let container: PersistentContainer
    let tracker: HabitTracker

    init() throws {  // runs before each test: a fresh, isolated in-memory store
        container = try PersistentContainer.forTesting(Habit.self)
        tracker = HabitTracker(context: container.newContext())
    }

    @Test func checkingInGrowsTheStreak() throws {
        let habit = try tracker.start("read")
        try tracker.checkIn(habit)
        try tracker.checkIn(habit)
        try container.expectStore(holds: "Habit", [["name": "read", "streak": 2]])
        try tracker.context.expectNoUnsavedChanges()
    }
}
// Testing example 2 end

// Testing example 3 begin
@Suite struct HabitTrackerFailureTests {
    @Test func aFailedCheckInChangesNothing() throws {
        let store = FaultInjectingStore()
        let container = try PersistentContainer.forTesting(model: try ManagedObjectModel(Habit.self), store: store)
        let tracker = HabitTracker(context: container.newContext())
        let habit = try tracker.start("run")

        store.failNextSave(with: FaultInjectingStore.Fault.diskFull)
        #expect(throws: FaultInjectingStore.Fault.diskFull) { try tracker.checkIn(habit) }

        #expect(habit.streak == 0)
        try container.expectStore(holds: "Habit", [["name": "run", "streak": 0]])
    }

    @Test func checkInPersistsExactlyOneChange() throws {
        let store = RecordingStore()
        let container = try PersistentContainer.forTesting(model: try ManagedObjectModel(Habit.self), store: store)
        let tracker = HabitTracker(context: container.newContext())
        let habit = try tracker.start("swim")
        store.clear()

        try tracker.checkIn(habit)

        #expect(store.changeSets.count == 1)
        #expect(store.updatedObjectIDs == [habit.objectID])
    }
}
// Testing example 3 end

// Testing example 4 begin
@Suite struct HabitFixtureTests {
    @Test func seededHabitsAreThere() throws {
        let container = try PersistentContainer.forTesting(Habit.self) { context in
            for name in ["read", "run"] { Habit(context: context).name = name }
        }
        #expect(try container.newContext().count(for: Habit.fetchRequest()) == 2)

        let fixture = try Fixture(data: Data(#"{"Habit": [{"name": "swim", "streak": 7}]}"#.utf8))
        let fromFixture = try PersistentContainer.forTesting(Habit.self) { try fixture.insert(into: $0) }
        try fromFixture.expectStore(holds: "Habit", [["name": "swim", "streak": 7]])
    }
}
// Testing example 4 end

// Testing example 5 begin
final class HabitTrackerXCTests: XCTestCase {
    var container: PersistentContainer!

    override func setUpWithError() throws {
        container = try PersistentContainer.forTesting(Habit.self)
    }

    func testStartingAHabitSavesIt() throws {
        let habit = try HabitTracker(context: container.newContext()).start("write")
        XCTAssertFalse(habit.hasChanges)
        try container.expectStore(holds: "Habit", [["name": "write"]])
    }
}
// Testing example 5 end

// Stores example 1 begin
/// Picks the store per environment, from configuration: the same app code runs on all of them.
func makeContainer(environment: [String: String], model: ManagedObjectModel) throws -> PersistentContainer {
    let description: StoreDescription
    switch environment["APP_STORE"] {
    case "memory": description = .inMemory  // tests and UI tests
    case "null": description = .discard  // previews and benchmarks: saves succeed, nothing is kept
    case let path?: description = try StoreDescription(url: URL(fileURLWithPath: path))  // .json → JSON, else binary
    case nil:
        let directory = FileManager.default.temporaryDirectory
        description = .binaryFile(directory.appendingPathComponent("app.ogdb"))  // production default
    }
    return try PersistentContainer(model: model, storeDescription: description)
}
// Stores example 1 end

// Stores example 2 begin
func relaunchWithoutADisk() throws -> Int {
    let model = try ManagedObjectModel(Habit.self)
    let store = InMemoryStore()
    do {
        let container = try PersistentContainer(model: model, store: store)
        let context = container.newContext()
        Habit(context: context).name = "meditate"
        try context.save()
    }  // the container and its contexts are gone: the "app" quit
    let relaunched = try PersistentContainer(model: model, store: store)
    return try relaunched.newContext().count(for: Habit.fetchRequest())  // 1
}
// Stores example 2 end

// PortingFromCoreData example 1 begin
final class Gadget: ManagedObject {  // class Gadget: NSManagedObject
    @Attribute var name = ""  // @NSManaged var name: String
    @Attribute var price: Int64 = 0  // @NSManaged var price: Int64
}

func portedCode(_ container: PersistentContainer) throws {
    let context = container.newContext()  // container.newBackgroundContext()
    let gadget = Gadget(context: context)  // Gadget(context: context)
    gadget.name = "lamp"
    try context.saveIfNeeded()  // if context.hasChanges { try context.save() }

    var request = Gadget.fetchRequest()  // Gadget.fetchRequest()
    request.fetchLimit = 10
    let gadgets = try context.fetch(request)

    let id = gadgets[0].objectID  // NSManagedObjectID: pass IDs, not objects, across threads
    let again = try context.existingObject(with: id)
    try again.setValue(20, forKey: "price")  // setValue(_:forKey:) — throws on a bad key or type
    try context.save()

    try context.deleteAll(Gadget.self)  // NSBatchDeleteRequest for all Gadgets, then merge
    context.reset()
}
// PortingFromCoreData example 1 end

// Concurrency example 1 begin
/// Loads on a background context; only IDs (Sendable) come back to the main actor.
@MainActor
func showExpensiveRecipes(_ container: PersistentContainer) async throws -> [String] {
    let ids: [ObjectID] = try await container.performBackgroundTask { context in
        try context.fetch(Recipe.fetchRequest()).filter { $0.servings > 2 }.map(\.objectID)
    }
    let context = container.viewContext
    return try ids.compactMap { try context.existingObject(with: $0) as? Recipe }.map(\.title)
}
// Concurrency example 1 end

// Concurrency example 2 begin
/// A store of recipes owned by an actor: its context never leaves the actor.
actor RecipeBook {
    private let context: ManagedContext

    init(container: PersistentContainer) {
        context = container.newContext()
    }

    func add(_ title: String) async throws -> ObjectID {
        try await context.perform {
            let recipe = Recipe(context: context)
            recipe.title = title
            try context.save()
            return recipe.objectID
        }
    }
}
// Concurrency example 2 end

// Concurrency example 3 begin
/// Keeps the view context current: every save elsewhere is merged at its next fetch or save.
@MainActor
func followBackgroundSaves(_ container: PersistentContainer) {
    container.viewContext.automaticallyMergesChanges = true
}

/// Or merge explicitly, as each save is published (in commit order).
@MainActor
func mergeEverySave(_ container: PersistentContainer) async {
    for await save in container.saves {
        container.viewContext.mergeChanges(from: save)
    }
}
// Concurrency example 3 end
