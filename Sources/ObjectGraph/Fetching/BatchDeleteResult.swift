/// What a ``BatchDeleteRequest`` did.
///
/// Core Data: `NSBatchDeleteResult` with `resultType = .resultTypeObjectIDs`.
public struct BatchDeleteResult: Sendable, Hashable {
    /// The objects of the request's entity that matched and were deleted, in key order.
    ///
    /// - Complexity: O(1), except for a request without a predicate: the IDs of the emptied
    ///   entity's objects are made on first access, O(*n*) for *n* objects (then kept). ``count``
    ///   does not make them.
    public var deletedObjectIDs: [ObjectID] { deleted.objectIDs }
    /// Everything the batch changed, for ``ManagedContext/mergeChanges(from:)``: the matched
    /// objects, the objects the `cascade` rule deleted with them, and the objects whose
    /// relationships the `nullify` rule changed. Its `sequenceNumber` is 0 when nothing matched
    /// (nothing was committed or published).
    public let notification: SaveNotification

    /// The number of objects of the request's entity deleted.
    ///
    /// - Complexity: O(1).
    ///
    /// Core Data: `resultType = .resultTypeCount`.
    public var count: Int { deleted.count }

    /// The deleted objects, listed or as the key runs of an emptied entity.
    private let deleted: DeletedObjectIDs

    init(deleted: DeletedObjectIDs, notification: SaveNotification) {
        self.deleted = deleted
        self.notification = notification
    }

    /// Whether the two are equal.
    public static func == (lhs: BatchDeleteResult, rhs: BatchDeleteResult) -> Bool {
        lhs.count == rhs.count && lhs.notification == rhs.notification
            && lhs.deletedObjectIDs == rhs.deletedObjectIDs
    }

    /// Hashes the components that `==` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        hasher.combine(notification)
    }
}
