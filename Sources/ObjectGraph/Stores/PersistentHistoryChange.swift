/// One object's change in a ``PersistentHistoryTransaction``.
///
/// Core Data: `NSPersistentHistoryChange`.
public struct PersistentHistoryChange: Sendable, Hashable {
    /// What happened to the object.
    ///
    /// Core Data: `NSPersistentHistoryChangeType`.
    public enum ChangeType: Sendable, Hashable {
        case insert, update, delete
    }

    /// The object that changed.
    public var objectID: ObjectID
    /// Whether it was inserted, updated or deleted.
    public var changeType: ChangeType
}
