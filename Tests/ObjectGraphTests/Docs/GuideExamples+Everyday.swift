import Foundation
import ObjectGraph

// Regions of Relationships.md, Stores.md and Predicates.md about the everyday methods: deletion
// hooks, key paths, mutable relationship proxies, read-only stores and codable collections.

// Relationships example 5 begin
final class Roster: ManagedObject {
    @Attribute var name = ""
    @Attribute var playerCount: Int64 = 0
    @Relationship(inverse: "roster") var players: [Player]
}

final class Player: ManagedObject {
    @Attribute var name = ""
    @Attribute var goals: Int64 = 0
    @Relationship(inverse: "players") var roster: Roster?

    /// Keeps the roster's count right; runs before the delete rules unlink the player.
    override func prepareForDeletion() {
        roster?.playerCount -= 1
    }
}

/// Adds a player by key, as Core Data code does, and returns the roster's total goals.
func sign(_ player: Player, to roster: Roster) throws -> Int64? {
    try roster.mutableOrderedSetValue(forKey: "players").append(player)
    roster.playerCount += 1
    return try roster.value(forKeyPath: "players.@sum.goals") as? Int64
}
// Relationships example 5 end

// Stores example 3 begin
/// Opens a catalog that ships with the app: it loads, and every save throws `readOnlyStore`.
func openCatalog(at url: URL, model: ManagedObjectModel) throws -> PersistentContainer {
    var description = StoreDescription.binaryFile(url)
    description.isReadOnly = true
    return try PersistentContainer(model: model, storeDescription: description)
}
// Stores example 3 end

// Predicates example 10 begin
final class Snippet: ManagedObject {
    @Attribute var title = ""
    @Attribute var tags: [String] = []
}

func snippets(taggedWith tag: String, in context: ManagedContext) throws -> [Snippet] {
    var request = Snippet.fetchRequest()
    request.predicate = try FetchPredicate(format: "ANY tags == %@", tag)
    return try context.fetch(request)
}

func snippetsWithSwiftPredicate(taggedWith tag: String, in context: ManagedContext) throws -> [Snippet] {
    try context.fetch(FetchRequest(predicate: FetchPredicate(#Predicate<Snippet> { $0.tags.contains(tag) })))
}
// Predicates example 10 end

// Predicates example 11 begin
/// Each basket holding two fruits or more, with its count and total price, most expensive first.
func basketTotals(in context: ManagedContext) throws -> [(basket: String, fruits: Int64, total: Int64)] {
    var request = Fruit.fetchRequest()
    request.propertiesToGroupBy = ["basket.label"]
    request.expressionsToFetch = [.count(as: "fruits"), .sum("price", as: "total")]
    request.havingPredicate = try FetchPredicate(format: "$fruits >= 2")
    request.sortDescriptors = [SortDescriptor(key: "total", ascending: false)]
    return try context.fetchDictionaries(request).map { group in
        (
            group.value(forKey: "basket.label", as: String.self) ?? "no basket",
            group.value(forKey: "fruits", as: Int64.self) ?? 0, group.value(forKey: "total", as: Int64.self) ?? 0
        )
    }
}
// Predicates example 11 end
