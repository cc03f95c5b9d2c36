import Foundation
import ObjectGraph
import Testing

/// An object whose insert validation runs a caller's closure (to reach into the context while
/// a save validates).
final class ValidationProbe: ManagedObject {
    var onValidate: (ManagedContext) -> Void = { _ in }
    override func validateForInsert() throws {
        if let context = managedObjectContext { onValidate(context) }
    }
}

/// A customer whose orders go with it; an order's lines go with the order, and one line is its
/// featured line (a second pair of relationships between orders and lines); a line's parts go
/// with the line.
final class FeatureCustomer: ManagedObject {
    @Relationship(inverse: "customer", deleteRule: .cascade) var orders: Set<FeatureOrder>
}

final class FeatureOrder: ManagedObject {
    override class var deletesWithoutInstances: Bool { true }
    @Relationship(inverse: "orders") var customer: FeatureCustomer?
    @Relationship(inverse: "order", deleteRule: .cascade) var lines: Set<FeatureLine>
    @Relationship(inverse: "featuredIn") var featuredLine: FeatureLine?
}

final class FeatureLine: ManagedObject {
    override class var deletesWithoutInstances: Bool { true }
    @Relationship(inverse: "lines") var order: FeatureOrder?
    @Relationship(inverse: "featuredLine") var featuredIn: FeatureOrder?
    @Relationship(inverse: "line", deleteRule: .cascade) var parts: Set<FeaturePart>
}

final class FeaturePart: ManagedObject {
    override class var deletesWithoutInstances: Bool { true }
    @Relationship(inverse: "parts") var line: FeatureLine?
}

/// A save writes every deferred delete, whatever the validation methods do to the context's
/// deleted objects.
@Suite struct DeferredDeleteSaveTests {
    static let model = try! ManagedObjectModel(
        DeferredCrate.self, DeferredItem.self, DeferredPart.self, DeferredTag.self, DeferredShelf.self,
        ValidationProbe.self)

    @Test func aSaveWritesDeferredDeletesWhenValidationTakesBackAnotherDelete() throws {
        let container = try PersistentContainer(model: Self.model, store: InMemoryStore())
        let filler = container.newContext()
        let crate = DeferredCrate(context: filler)
        let item = DeferredItem(context: filler)
        item.crate = crate
        _ = DeferredShelf(context: filler)
        try filler.save()

        let context = container.newContext()
        let shelf = try #require(try context.fetch(DeferredShelf.fetchRequest()).first)
        // Another context deletes the shelf's row.
        let other = container.newContext()
        other.delete(try #require(try other.fetch(DeferredShelf.fetchRequest()).first))
        try other.save()

        context.delete(shelf)
        // The item is deleted as a row, without an instance.
        context.delete(try #require(try context.fetch(DeferredCrate.fetchRequest()).first))
        let probe = ValidationProbe(context: context)
        probe.onValidate = { context in
            // Makes the deferred delete an object (one more deleted object) ...
            _ = context.registeredObjects
            // ... and takes one back: the shelf is gone from the store.
            context.refresh(shelf, mergeChanges: false)
        }
        try context.save()

        let check = container.newContext()
        #expect(try check.count(for: DeferredItem.fetchRequest()) == 0)
        #expect(try check.count(for: DeferredCrate.fetchRequest()) == 0)
        #expect(!context.hasChanges)
    }

    /// A line's rule looks its order up (a deferred delete whose rules are still running) before
    /// the line's parts are deleted: the deletes still complete in the order of an object cascade.
    @Test func deletesThatBecomeObjectsMidRuleKeepTheOrderOfAnObjectCascade() throws {
        func history(deferring: Bool) throws -> [String] {
            let model = try ManagedObjectModel(
                FeatureCustomer.self, FeatureOrder.self, FeatureLine.self, FeaturePart.self)
            let store = SQLiteStore(url: TemporaryDirectory.make().appendingPathComponent("orders.sqlite"))
            let container = try PersistentContainer(model: model, store: store)
            let filler = container.newContext()
            let customer = FeatureCustomer(context: filler)
            let order = FeatureOrder(context: filler)
            order.customer = customer
            let line = FeatureLine(context: filler)
            line.order = order
            order.featuredLine = line
            FeaturePart(context: filler).line = line
            try filler.save()
            let token = try store.currentHistoryToken()
            let context = container.newContext()
            if !deferring { context.undoManager = ContextUndoManager() }
            for customer in try context.fetch(FeatureCustomer.fetchRequest()) { context.delete(customer) }
            try context.save()
            return try store.fetchHistory(after: token).flatMap(\.changes).map { "\($0.objectID) \($0.changeType)" }
        }
        let deferred = try history(deferring: true)
        #expect(deferred == (try history(deferring: false)))
        #expect(deferred.count == 4)
    }
}
