import Observation

/// An object's observation registrar, boxed: `ObservationRegistrar` is a resilient type, so an
/// optional one costs value-witness calls to test for `nil` and a copy (a retain of its storage)
/// to use; an optional reference costs a compare, and the box's methods use the registrar in place.
/// It also keeps the object's committed values, so that an object has one field for both.
final class ObservationBox {
    let registrar = ObservationRegistrar()
    /// The observed object's committed values (see `ManagedObject.Extra`).
    var committed: [StoreValue]?

    init(committed: [StoreValue]?) {
        self.committed = committed
    }

    func access(_ object: ManagedObject, slot: Int) {
        registrar.access(object, keyPath: ManagedObject.observedKeyPath(slot))
    }

    func willSet(_ object: ManagedObject, slot: Int) {
        registrar.willSet(object, keyPath: ManagedObject.observedKeyPath(slot))
    }

    func didSet(_ object: ManagedObject, slot: Int) {
        registrar.didSet(object, keyPath: ManagedObject.observedKeyPath(slot))
    }
}
