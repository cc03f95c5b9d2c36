extension ManagedContext {
    /// The values of every object changed while a journal is open, as they were before.
    struct Journal {
        var originalValues: [ObjectIdentifier: (object: ManagedObject, values: [StoreValue])] = [:]
        /// Deferred deletes that became objects under the journal (`materializeDeferredDeletes`).
        var materialized: [ManagedObject] = []
    }

    /// Remembers `object`'s values before its first change under the open journal.
    func recordBeforeChange(_ object: ManagedObject) {
        let id = ObjectIdentifier(object)
        guard journal?.originalValues[id] == nil else { return }
        journal?.originalValues[id] = (object, object.values)
    }

    /// Runs `body`; if it throws, puts every value, flag and pending change back exactly as it
    /// was. Costs O(changes), not O(registered objects). Nested calls share the outer journal.
    func withChangeJournal<T>(_ body: () throws -> T) throws -> T {
        guard journal == nil else { return try body() }
        // While the insertion order lists the inserted objects exactly, their set is rebuilt
        // from it on failure rather than kept, so that a save can let go of it while it commits.
        let savedInsertedSet: Set<ManagedObject>? = insertionOrderIsExact ? nil : inserted
        let savedDeleted = deletedStorage
        let savedDeferred = deferredDeletes
        let savedTouched = touched
        let savedOrders = (insertionOrder, deletionOrder, insertionOrderIsExact, deletionOrderIsExact)
        // An inserted object's flags are nearly always `insertedFlags`: only the others are kept.
        let insertedFlags = ManagedObject.Flags(isInserted: true)
        var savedFlags: [(ManagedObject, ManagedObject.Flags)] = []
        savedFlags.reserveCapacity(savedDeleted.count + savedTouched.count)
        for object in savedInsertedSet.map(Array.init) ?? insertionOrder where object.flags != insertedFlags {
            savedFlags.append((object, object.flags))
        }
        for object in savedDeleted { savedFlags.append((object, object.flags)) }
        for object in savedTouched { savedFlags.append((object, object.flags)) }
        journal = Journal()
        defer { journal = nil }
        do {
            return try body()
        } catch {
            let savedInserted = savedInsertedSet ?? Set(savedOrders.0)
            for object in inserted where !savedInserted.contains(object) {
                unregister(object)
                object.flags = ManagedObject.Flags()
            }
            for object in deletedStorage where !savedDeleted.contains(object) { object.flags.isDeleted = false }
            for object in touched where !savedTouched.contains(object) { object.flags.isTouched = false }
            for (object, values) in journal?.originalValues.values ?? [:].values { object.replaceValues(values) }
            for object in journal?.materialized ?? [] {
                // Deferred deletes again, below: not objects.
                unregister(object)
                object.flags = ManagedObject.Flags()
            }
            for object in savedInserted {
                object.flags = insertedFlags
                if object.context !== self {
                    object.context = self
                    registryStorage[object.objectID] = object
                }
            }
            for (object, flags) in savedFlags {
                object.flags = flags
                if object.context !== self {
                    object.context = self
                    registryStorage[object.objectID] = object
                }
            }
            inserted = savedInserted
            deletedStorage = savedDeleted
            deferredDeletes = savedDeferred
            touched = savedTouched
            (insertionOrder, deletionOrder, insertionOrderIsExact, deletionOrderIsExact) = savedOrders
            throw error
        }
    }
}
