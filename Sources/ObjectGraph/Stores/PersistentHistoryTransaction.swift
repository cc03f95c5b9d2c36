import Foundation

/// One save as the store's persistent history recorded it: when, by whom, and which objects it
/// inserted, updated and deleted, from whichever process or container saved it.
///
/// Core Data: `NSPersistentHistoryTransaction`.
public struct PersistentHistoryTransaction: Sendable, Hashable {
    /// The transaction's position in the history.
    public var token: PersistentHistoryToken
    /// When the save was committed.
    public var timestamp: Date
    /// The saver's name, if it gave one.
    public var author: String?
    /// The objects the save changed, in the order it wrote them.
    public var changes: [PersistentHistoryChange]
}
