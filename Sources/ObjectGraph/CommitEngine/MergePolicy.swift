/// How a save resolves a conflict: an object that another context changed or deleted since this
/// context read it (optimistic locking), or an inserted object whose uniqueness-constrained
/// values an existing object already has.
///
/// For example:
/// ```swift
/// context.mergePolicy = .mergeByPropertyObjectTrump
/// ```
///
/// Core Data: `NSMergePolicy`.
public enum MergePolicy: String, Sendable, Hashable, CaseIterable {
    /// Refuse the save with a `conflict` error naming each object (the default).
    ///
    /// Core Data: `NSErrorMergePolicy`.
    case error
    /// This context's version of the object wins whole: its values overwrite the stored ones,
    /// and its deletes go ahead. An inserted duplicate merges into the stored object (which keeps
    /// its ID) with this context's attribute values.
    ///
    /// Core Data: `NSOverwriteMergePolicy`.
    case objectTrump
    /// The stored version wins whole: this context's change to the object is dropped (the object
    /// is refreshed), and the rest of the save goes ahead. An inserted duplicate merges into the
    /// stored object, which keeps its attribute values.
    ///
    /// Core Data: `NSRollbackMergePolicy`.
    case storeTrump
    /// Property by property: keys this context changed take its values; every other key keeps
    /// the other context's changes. Deletes go ahead. Duplicates merge as with ``objectTrump``.
    ///
    /// Core Data: `NSMergeByPropertyObjectTrumpMergePolicy`.
    case mergeByPropertyObjectTrump
    /// Property by property: keys only this context changed take its values; keys both changed
    /// keep the stored value. A delete of an object changed elsewhere is dropped. Duplicates merge
    /// as with ``storeTrump``.
    ///
    /// Core Data: `NSMergeByPropertyStoreTrumpMergePolicy`.
    case mergeByPropertyStoreTrump

    /// Whether this context's attribute values win when an inserted duplicate is merged.
    var objectWins: Bool { self == .objectTrump || self == .mergeByPropertyObjectTrump }
}
