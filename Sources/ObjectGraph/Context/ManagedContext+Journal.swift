extension ManagedContext {
    /// The values of every object changed while a journal is open, as they were before.
    struct Journal {
        var originalValues: [ObjectIdentifier: (object: ManagedObject, values: [StoreValue])] = [:]
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
        let savedInserted = inserted
        let savedDeleted = deleted
        let savedTouched = touched
        let savedOrders = (insertionOrder, deletionOrder, insertionOrderIsExact, deletionOrderIsExact)
        var savedFlags: [(ManagedObject, ManagedObject.Flags)] = []
        savedFlags.reserveCapacity(savedInserted.count + savedDeleted.count + savedTouched.count)
        for object in savedInserted { savedFlags.append((object, object.flags)) }
        for object in savedDeleted { savedFlags.append((object, object.flags)) }
        for object in savedTouched { savedFlags.append((object, object.flags)) }
        journal = Journal()
        defer { journal = nil }
        do {
            return try body()
        } catch {
            for object in inserted where !savedInserted.contains(object) {
                unregister(object)
                object.flags = ManagedObject.Flags()
            }
            for object in deleted where !savedDeleted.contains(object) { object.flags.isDeleted = false }
            for object in touched where !savedTouched.contains(object) { object.flags.isTouched = false }
            for (object, values) in journal?.originalValues.values ?? [:].values { object.replaceValues(values) }
            for (object, flags) in savedFlags {
                object.flags = flags
                if object.context !== self {
                    object.context = self
                    registry[object.objectID] = object
                }
            }
            inserted = savedInserted
            deleted = savedDeleted
            touched = savedTouched
            (insertionOrder, deletionOrder, insertionOrderIsExact, deletionOrderIsExact) = savedOrders
            throw error
        }
    }
}
