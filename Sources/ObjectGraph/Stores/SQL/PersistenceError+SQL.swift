import Foundation

extension PersistenceError {
    /// A model whose SQL layout would give two tables or columns one name.
    static func sqlNameCollision(_ what: String) -> PersistenceError {
        PersistenceError(
            code: .invalidModel,
            message: "The model cannot be stored in a SQL store: \(excerpt(what)) would have the name of another "
                + "table or column (`_key` and `_version` are the store's columns; `<Entity>.<relationship>` names "
                + "join tables). Rename the property or entity.")
    }

    /// A row or metadata value of a SQL store that does not follow the store's layout.
    static func corruptSQLStore(_ url: URL, _ reason: String) -> PersistenceError {
        PersistenceError(
            code: .corruptStore,
            message: "The store \(url.path) is damaged: \(excerpt(reason, limit: 400)). Restore it from a backup, "
                + "or check it with `objectgraph verify`.",
            fileURL: url)
    }

    /// A key a SQL store's query selected that no object can have (outside
    /// `1...EntityTable.maxKey`): a table edited by hand or damaged.
    static func outOfRangeSQLKey(_ key: Int64) -> PersistenceError {
        PersistenceError(
            code: .corruptStore,
            message: "The store is damaged: a table holds the object key \(key), outside 1...\(EntityTable.maxKey). "
                + "Restore it from a backup, or check it with `objectgraph verify`.")
    }

    /// An `UPDATE` whose version check matched no row: another process changed or deleted the
    /// object since this one read it.
    static func staleRow(_ id: ObjectID, expected: Int64, url: URL) -> PersistenceError {
        PersistenceError(
            code: .conflict,
            message: "\(id) changed in the store \(url.path) since this container read it (it is no longer at "
                + "version \(expected); another process saved it). Nothing was saved: fetch the object again "
                + "and apply the change again.",
            entityName: id.entityName, objectID: id, fileURL: url)
    }

    /// A `DELETE` whose version check matched no row: another process changed the object (its
    /// row is at `current`) or deleted it (`current` is `nil`) since this one read it.
    static func staleDelete(_ id: ObjectID, expected: Int64, current: Int64?, url: URL) -> PersistenceError {
        let what =
            current.map {
                "changed in the store \(url.path) since this container read it (it is at version \($0), not \(expected))"
            }
            ?? "was deleted from the store \(url.path) since this container read it"
        return PersistenceError(
            code: .conflict,
            message: "\(id) \(what): another process saved it. Nothing was saved: fetch the object again and "
                + "delete it again if it should still go.",
            entityName: id.entityName, objectID: id, fileURL: url)
    }
}
