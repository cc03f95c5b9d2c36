import Foundation

extension SaveNotification {
    /// The notification of a batch request that changed nothing: empty, never published.
    static func empty(origin: ContextIdentifier) -> SaveNotification {
        SaveNotification(
            insertedObjectIDs: [], updatedObjectIDs: [], deletedObjectIDs: [], origin: origin, sequenceNumber: 0)
    }
}
