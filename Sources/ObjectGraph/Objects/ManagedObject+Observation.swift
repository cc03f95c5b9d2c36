import Observation

/// Managed objects are observable with the toolchain's Observation module: reading a property
/// inside `withObservationTracking` (or a SwiftUI view body, or `Observations`) registers it, and
/// any change of it by the owning context notifies.
///
/// Every property, typed (`@Attribute`, `@Relationship`) or untyped (``value(forKey:)``),
/// registers per property: a change of `price` does not notify a reader of `name`. Changes that
/// notify: setting a property (typed or untyped), inverse updates, delete rules, ``rollback()``,
/// ``refresh(_:mergeChanges:)``, merges of other contexts' saves and batch requests
/// (``ManagedContext/mergeChanges(from:)``, ``ManagedContext/automaticallyMergesChanges``), a
/// child context's save into this object's context, undo and redo, and a save whose merge policy
/// changed values. Deleting an object, or finding it deleted elsewhere, notifies the readers of
/// every one of its properties. Reads of `isDeleted`, `hasChanges` and the other state flags do
/// not register.
///
/// Objects are observed in their context's isolation domain: notifications arrive synchronously
/// on the thread that makes the change, as with any `@Observable` class.
///
/// For example:
/// ```swift
/// withObservationTracking {
///     _ = apple.price
/// } onChange: {
///     print("price will change")
/// }
/// apple.price = 120  // prints "price will change"
/// ```
///
/// Core Data: `NSManagedObject`'s key-value observing and `ObservableObject` conformance.
extension ManagedObject: Observable {}

extension ManagedObject {
    /// The key path a read of `slot` registers and a change of it notifies: one per property,
    /// the same for every entity (the registrar belongs to the object).
    subscript(observedSlot slot: Int) -> Int { slot }

    /// Registers a read of `slot` with an active `withObservationTracking`.
    ///
    /// - Complexity: O(1); the object's registrar is made on its first read.
    @usableFromInline
    final func observationAccess(_ slot: Int) {
        (observationRegistrar ?? makeObservationBox()).access(self, slot: slot)
    }

    /// Tells observers of `slot` that it will change.
    final func observationWillSet(_ slot: Int) {
        observationRegistrar?.willSet(self, slot: slot)
    }

    /// Tells observers of `slot` that it changed.
    final func observationDidSet(_ slot: Int) {
        observationRegistrar?.didSet(self, slot: slot)
    }

    /// The observation key path of `slot`: made once for the first slots (making a key path
    /// takes a microsecond), on demand beyond them.
    static func observedKeyPath(_ slot: Int) -> KeyPath<ManagedObject, Int> {
        if slot < observedKeyPaths.count { return observedKeyPaths[slot] }
        return \ManagedObject.[observedSlot: slot]
    }

    /// Replaces every value, telling the observers of each property whose value differs.
    func replaceValues(_ newValues: [StoreValue]) {
        context?.noteReplacedValues(of: self)
        guard observationRegistrar != nil, newValues.count == values.count else {
            values = newValues
            return
        }
        let changed = values.indices.filter { values[$0] != newValues[$0] }
        for slot in changed { observationWillSet(slot) }
        values = newValues
        for slot in changed { observationDidSet(slot) }
    }

    /// Tells the observers of every property that the object was deleted or found missing.
    func observationDidDelete() {
        guard observationRegistrar != nil else { return }
        for slot in values.indices { observationWillSet(slot) }
        for slot in values.indices { observationDidSet(slot) }
    }
}

/// The observation key paths of the first 256 slots (see `ManagedObject.observedKeyPath(_:)`).
private let observedKeyPaths: [any KeyPath<ManagedObject, Int> & Sendable] = (0..<256).map {
    \ManagedObject.[observedSlot: $0]
}
