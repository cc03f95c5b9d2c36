extension ManagedContext {
    /// Merges the saves that arrived since the last operation, when merging automatically.
    ///
    /// - Throws: The store's error when it cannot tell what other processes saved (after
    ///   merging this container's own saves); the next call asks again.
    func mergePendingSaves() throws {
        var failure: (any Error)?
        do {
            if parent == nil { try coordinator.mergeExternalChangesInTurn() }
            try parent?.mergePendingSaves()
        } catch {
            failure = error
        }
        if let inbox {
            let notifications = inbox.takeAll()
            if !notifications.isEmpty {
                processingChangesOnce { for notification in notifications { mergeChanges(from: notification) } }
            }
        }
        if let failure { throw failure }
    }

    /// Brings this context up to date with a save of another context: registered objects that it
    /// changed are reloaded, keeping this context's own unsaved edits on top (the keys it changed
    /// keep its values); objects it deleted report `isDeleted` and stay readable; objects it
    /// inserted are fetchable already. A notification of this context's own save is ignored.
    ///
    /// - Complexity: O(*n*) for *n* objects in the notification; for a delete of every object of
    ///   an entity (a ``BatchDeleteRequest`` without a predicate), O(*r*) for *r* registered
    ///   objects instead.
    ///
    /// Core Data: `NSManagedObjectContext.mergeChanges(fromContextDidSave:)`.
    public func mergeChanges(from notification: SaveNotification) {
        guard notification.origin != identifier else { return }
        for id in notification.updatedObjectIDs {
            guard let object = registry[id], !object.flags.isInserted else { continue }
            refresh(object, mergeChanges: true)
        }
        for id in notification.individuallyDeletedObjectIDs {
            guard let object = registry[id] else { continue }
            refresh(object, mergeChanges: false)
        }
        if let emptied = notification.emptied { mergeEmptied(emptied) }
        didProcessChanges()
    }

    /// The registered objects of an entity that a save emptied, which the store no longer holds
    /// (keys are never reused, so a later insert is not mistaken for one), are gone:
    /// O(registered objects), whatever the number deleted.
    private func mergeEmptied(_ emptied: EmptiedEntities) {
        let gone = registry.values.filter { object in
            emptied.entityNames.contains(object.info.name)
                && !coordinator.containsCommittedObject(object.objectID, entityIndex: object.info.index)
        }
        for object in gone { refresh(object, mergeChanges: false) }
    }
}

extension ManagedContext {
    /// Runs `body` with this context on the caller's executor and returns its result: for code
    /// that owns the context through an actor and wants Core Data's `perform` shape.
    ///
    /// For example:
    /// ```swift
    /// actor FruitStore {
    ///     let context: ManagedContext
    ///     func count() async throws -> Int {
    ///         try await context.perform { try context.count(for: Fruit.fetchRequest()) }
    ///     }
    /// }
    /// ```
    ///
    /// Core Data: `NSManagedObjectContext.perform(_:)`.
    nonisolated(nonsending)
        public func perform<T>(_ body: () throws -> T) async rethrows -> T
    {
        try body()
    }
}
