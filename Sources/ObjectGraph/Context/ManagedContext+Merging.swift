extension ManagedContext {
    /// Merges the saves that arrived since the last operation, when merging automatically.
    func mergePendingSaves() {
        parent?.mergePendingSaves()
        guard let inbox else { return }
        let notifications = inbox.takeAll()
        guard !notifications.isEmpty else { return }
        processingChangesOnce { for notification in notifications { mergeChanges(from: notification) } }
    }

    /// Brings this context up to date with a save of another context: registered objects that it
    /// changed are reloaded, keeping this context's own unsaved edits on top (the keys it changed
    /// keep its values); objects it deleted report `isDeleted` and stay readable; objects it
    /// inserted are fetchable already. A notification of this context's own save is ignored.
    ///
    /// - Complexity: O(*n*) for *n* objects in the notification.
    ///
    /// Core Data: `NSManagedObjectContext.mergeChanges(fromContextDidSave:)`.
    public func mergeChanges(from notification: SaveNotification) {
        guard notification.origin != identifier else { return }
        for id in notification.updatedObjectIDs {
            guard let object = registry[id], !object.flags.isInserted else { continue }
            refresh(object, mergeChanges: true)
        }
        for id in notification.deletedObjectIDs {
            guard let object = registry[id] else { continue }
            refresh(object, mergeChanges: false)
        }
        didProcessChanges()
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
