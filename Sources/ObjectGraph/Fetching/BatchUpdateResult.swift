/// What a ``BatchUpdateRequest`` did.
///
/// Core Data: `NSBatchUpdateResult` with `resultType = .updatedObjectIDsResultType`.
public struct BatchUpdateResult: Sendable, Hashable {
    /// The objects that matched and changed, in key order (matching objects that already held
    /// the values are not written and not listed).
    public let updatedObjectIDs: [ObjectID]
    /// The change, for ``ManagedContext/mergeChanges(from:)``. Its `sequenceNumber` is 0 when
    /// nothing changed (nothing was committed or published).
    public let notification: SaveNotification

    /// The number of objects updated.
    ///
    /// Core Data: `resultType = .updatedObjectsCountResultType`.
    public var count: Int { updatedObjectIDs.count }
}
