import ObjectGraph

// Scenario 2 of SCENARIOS.md: a repository protocol with async methods over background contexts.
// The app's code: a domain value, the entity that stores it, and a storage that maps between them.

/// A number, as the app's domain knows it: a plain value, free to cross isolation domains.
struct Number: Equatable, Sendable {
    var value: Int64
}

/// How a `Number` is stored.
final class NumberEntity: ManagedObject {
    @Attribute var value: Int64 = 0

    /// A new entity holding `number`, inserted into `context`.
    convenience init(context: ManagedContext, number: Number) {
        self.init(context: context)
        value = number.value
    }

    /// The domain value this entity stores.
    var number: Number { Number(value: value) }
}

/// Where the app keeps its numbers; tests and previews can substitute any implementation.
protocol NumberStorage: Sendable {
    /// Every saved number, in the order they were saved.
    func get() async throws -> [Number]
    /// Saves `number`; returns whether it was saved.
    func save(_ number: Number) async -> Bool
}

/// The storage over an ObjectGraph container; each call does its work on a background context.
struct ObjectGraphNumberStorage: NumberStorage {
    let container: PersistentContainer

    func get() async throws -> [Number] {
        try await container.performBackgroundTask { context in
            // Objects come back in the order they were inserted (their keys only grow).
            try context.fetch(NumberEntity.fetchRequest()).map(\.number)
        }
    }

    func save(_ number: Number) async -> Bool {
        do {
            return try await container.performBackgroundTask { context in
                _ = NumberEntity(context: context, number: number)
                try context.save()
                return true
            }
        } catch {
            return false
        }
    }
}
