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
    /// For an update, the names of the attributes and relationships whose values it changed (as
    /// the model named them when the save was made); `nil` for inserts and deletes, and for an
    /// update saved without the state it replaced.
    ///
    /// For example:
    /// ```swift
    /// for change in transaction.changes where change.updatedProperties?.contains("price") == true { … }
    /// ```
    ///
    /// Core Data: `NSPersistentHistoryChange.updatedProperties`.
    public var updatedProperties: Set<String>? = nil
}
