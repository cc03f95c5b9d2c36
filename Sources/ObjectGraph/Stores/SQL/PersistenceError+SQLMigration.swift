import Foundation

extension PersistenceError {
    /// A SQL store that another process migrated to another model while this container had it
    /// open.
    static func storeMigratedByAnotherProcess(_ url: URL) -> PersistenceError {
        PersistenceError(
            code: .modelMismatch,
            message: "Another process migrated the store \(url.path) to another model while this container had it "
                + "open. Nothing was saved or read: close the container and open the store with the new model.",
            fileURL: url)
    }
}
