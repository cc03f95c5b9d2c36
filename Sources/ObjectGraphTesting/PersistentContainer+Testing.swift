import Foundation
import ObjectGraph

extension PersistentContainer {
    /// A container on a fresh, empty in-memory store, for one test: isolated from every other
    /// container, so tests can run in parallel. `seed` fills it before it is returned, and is
    /// saved.
    ///
    /// For example:
    /// ```swift
    /// let container = try PersistentContainer.forTesting(Fruit.self, Basket.self) { context in
    ///     Fruit(context: context).name = "apple"
    /// }
    /// ```
    ///
    /// The model derived from a list of classes is built once per list and reused (models are
    /// immutable and hold no data), so a test container costs microseconds.
    ///
    /// - Throws: the model's `invalidModel` error, or whatever `seed` throws or its save throws.
    public static func forTesting(
        _ types: ManagedObject.Type..., seed: ((ManagedContext) throws -> Void)? = nil
    ) throws -> PersistentContainer {
        try forTesting(model: TestModelCache.model(for: types), seed: seed)
    }

    /// A container for `model` on a fresh, empty in-memory store, seeded by `seed`.
    public static func forTesting(
        model: ManagedObjectModel, store: any PersistentStore = InMemoryStore(),
        seed: ((ManagedContext) throws -> Void)? = nil
    ) throws -> PersistentContainer {
        let container = try PersistentContainer(model: model, store: store)
        if let seed {
            let context = container.newContext()
            try seed(context)
            try context.save()
        }
        return container
    }

    /// A container on a fresh in-memory store, seeded from a JSON fixture file (see
    /// ``Fixture``), for example one in the test bundle's resources.
    public static func forTesting(
        _ types: ManagedObject.Type..., fixture url: URL
    ) throws -> PersistentContainer {
        try forTesting(model: TestModelCache.model(for: types)) { context in
            try Fixture(contentsOf: url).insert(into: context)
        }
    }
}

/// Models derived from lists of classes, built once per list.
///
/// This is the kit's one piece of shared state, and it holds no data: a model is an immutable
/// schema, identical for every test that asks for the same classes.
enum TestModelCache {
    private static let models = Locked<[[ObjectIdentifier]: ManagedObjectModel]>([:])

    static func model(for types: [ManagedObject.Type]) throws -> ManagedObjectModel {
        let key = types.map { ObjectIdentifier($0) }
        if let model = models.withLock({ $0[key] }) { return model }
        let model = try ManagedObjectModel(types: types)
        models.withLock { $0[key] = model }
        return model
    }
}
