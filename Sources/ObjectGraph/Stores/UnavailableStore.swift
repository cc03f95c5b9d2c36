/// The store of a description that names no store it can make (a ``StoreDescription/Kind/custom``
/// kind set by hand, without a factory): every call fails with the error that says so, so that
/// the container's initializer reports it rather than the program trapping.
final class UnavailableStore: PersistentStore {
    let error: PersistenceError

    init(error: PersistenceError) { self.error = error }

    func load(model: ManagedObjectModel) throws -> StoreSnapshot { throw error }
    func save(_ changes: StoreChangeSet) throws { throw error }
    func close() {}
}
