import Foundation

extension PersistenceError {
    /// A save (or batch request) to a store opened read-only; `store` names it ("The store
    /// /path/x.json", "This InMemoryStore").
    static func readOnlyStore(_ store: String, url: URL?) -> PersistenceError {
        PersistenceError(
            code: .readOnlyStore,
            message: "\(store) was opened read-only, so nothing was saved. Open it without isReadOnly to change it, "
                + "or discard the context's changes with rollback().",
            fileURL: url)
    }

    /// A read-only store whose file does not exist (a read-only store never creates it).
    static func readOnlyStoreMissing(_ url: URL) -> PersistenceError {
        PersistenceError(
            code: .ioFailure,
            message: "The store \(url.path) does not exist, and a store opened read-only never creates its file. "
                + "Check the path, or open the store writable once to create it.",
            fileURL: url)
    }
}
