/// One object's change in a ``PersistentHistoryTransaction``.
///
/// Core Data: `NSPersistentHistoryChange`.
public struct PersistentHistoryChange: Sendable, Hashable {
    /// What happened to the object.
    ///
    /// Core Data: `NSPersistentHistoryChangeType`.
    public enum ChangeType: Sendable, Hashable {
        /// The object was inserted.
        case insert
        /// Some of the object's values changed.
        case update
        /// The object was deleted.
        case delete
    }

    /// The object that changed.
    public var objectID: ObjectID
    /// Whether it was inserted, updated or deleted.
    public var changeType: ChangeType
}
