/// A store that other processes (or other containers) may write while a container has it open,
/// such as ``SQLiteStore``: the coordinator asks it for their saves before each fetch, and for
/// blocks of object keys so that processes never hand out the same key.
package protocol ExternallyChangedStore: PersistentStore {
    /// The saves others made since the last call (or since ``PersistentStore/load(model:)``),
    /// or `nil` if there were none; cheap when there were none.
    func externalChanges() throws -> StoreExternalChanges?

    /// ``externalChanges()`` without reading rows: ``StoreExternalChanges/records`` may be
    /// empty, and ``StoreExternalChanges/inserted`` and ``StoreExternalChanges/updated`` list
    /// the changed objects (for a container that reads rows when it needs them).
    func externalChangedObjects() throws -> StoreExternalChanges?

    /// Reserves `count` never-used keys of `entityName` for this container, and returns the
    /// first.
    func reserveKeys(ofEntity entityName: String, count: Int64) throws -> Int64
}

extension ExternallyChangedStore {
    /// ``externalChanges()``: a store that does not say otherwise reads the rows.
    package func externalChangedObjects() throws -> StoreExternalChanges? { try externalChanges() }
}

/// Saves made by others since a store last looked: the current rows of the objects they
/// inserted or updated, the objects they deleted, and the store metadata.
package struct StoreExternalChanges: Sendable {
    var records: [StoreRecord]
    var deleted: [ObjectID]
    var metadata: [String: String]
    /// The objects they inserted (and did not delete after), when the store lists them.
    var inserted: [ObjectID] = []
    /// The objects they updated (inserted before), when the store lists them.
    var updated: [ObjectID] = []
}
