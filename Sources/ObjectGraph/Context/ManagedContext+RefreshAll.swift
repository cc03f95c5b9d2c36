extension ManagedContext {
    /// Reloads every registered object's saved values from the store (a child context: from its
    /// parent's current state), keeping this context's unsaved changes on top, as
    /// ``refresh(_:mergeChanges:)`` with `mergeChanges` true does for one object. Unsaved
    /// inserts are left as they are; an object that no longer exists in the store reports
    /// `isDeleted` afterwards. Observers and every ``FetchedResultsController`` of the context see
    /// the reloaded values once, at the end.
    ///
    /// For example, after another process wrote the store:
    /// ```swift
    /// context.refreshAllObjects()
    /// ```
    ///
    /// - Complexity: O(*r*) for *r* registered objects.
    ///
    /// Core Data: `NSManagedObjectContext.refreshAllObjects()`.
    public func refreshAllObjects() {
        processingChangesOnce {
            for object in registry.values where !object.flags.isInserted {
                refresh(object, mergeChanges: true)
            }
        }
    }
}
