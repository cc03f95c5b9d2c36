import Foundation

extension PersistenceError {
    static func invalidModel(_ message: String, entity: String? = nil, key: String? = nil) -> PersistenceError {
        PersistenceError(code: .invalidModel, message: message, entityName: entity, key: key)
    }

    static func modelMismatch(_ differences: [String]) -> PersistenceError {
        PersistenceError(
            code: .modelMismatch,
            message: "The store was written with a different model: "
                + "\(differences.prefix(10).map { excerpt($0) }.joined(separator: "; "))"
                + (differences.count > 10 ? "; and \(differences.count - 10) more (see detailedErrors)" : "") + ". "
                + "Open it with the model it was written with, or migrate it.",
            detailedErrors: differences.map { PersistenceError(code: .modelMismatch, message: $0) })
    }

    static func unknownEntity(_ name: String) -> PersistenceError {
        PersistenceError(
            code: .unknownEntity,
            message: "Entity '\(name)' is not in the model. Add it to the model or use an entity the model contains.",
            entityName: name)
    }

    static func unknownKey(_ key: String, entity: String, objectID: ObjectID?) -> PersistenceError {
        PersistenceError(
            code: .unknownKey,
            message: "Entity '\(entity)' has no attribute or relationship named '\(key)'. Check the key's spelling.",
            entityName: entity, objectID: objectID, key: key)
    }

    static func typeMismatch(key: String, entity: String, objectID: ObjectID?, expected: String, given: String)
        -> PersistenceError
    {
        PersistenceError(
            code: .typeMismatch,
            message: "'\(entity).\(key)' takes \(expected), not a value of type \(given). Pass a value of its type.",
            entityName: entity, objectID: objectID, key: key)
    }

    static func validationFailed(_ failures: [PersistenceError]) -> PersistenceError {
        if failures.count == 1 {
            var error = failures[0]
            error.detailedErrors = failures
            return error
        }
        return PersistenceError(
            code: .validation,
            message: "\(failures.count) validation failures; nothing was saved. See detailedErrors for each.",
            detailedErrors: failures)
    }

    static func staleObject(_ id: ObjectID, expected: Int64, found: Int64?) -> PersistenceError {
        let what = found.map { "it is at version \($0), not \(expected) as read" } ?? "it was deleted"
        return PersistenceError(
            code: .conflict,
            message: "\(id) changed in the store since this context read it (\(what)). Refresh the object "
                + "and apply the change again.",
            entityName: id.entityName, objectID: id)
    }

    static func danglingReference(_ id: ObjectID, key: String, target: ObjectID) -> PersistenceError {
        PersistenceError(
            code: .conflict,
            message: "\(id).\(key) refers to \(target), which no longer exists in the store. "
                + "Remove the reference and save again.",
            entityName: id.entityName, objectID: id, key: key)
    }

    static func uniquenessViolation(_ id: ObjectID, existing: ObjectID) -> PersistenceError {
        PersistenceError(
            code: .conflict,
            message: "\(id) has the same values as \(existing) for a uniqueness constraint of '\(id.entityName)'. "
                + "Change one of them, or set a merge policy that merges duplicates.",
            entityName: id.entityName, objectID: id,
            detailedErrors: [])
    }

    static func conflicts(_ conflicts: [PersistenceError]) -> PersistenceError {
        if conflicts.count == 1 {
            var error = conflicts[0]
            error.detailedErrors = conflicts
            return error
        }
        return PersistenceError(
            code: .conflict,
            message: "\(conflicts.count) objects conflict with the store; nothing was saved. See detailedErrors.",
            detailedErrors: conflicts)
    }

    static func objectNotFound(_ id: ObjectID) -> PersistenceError {
        PersistenceError(
            code: .objectNotFound,
            message: "\(id) does not exist: it was deleted or never saved.",
            entityName: id.entityName, objectID: id)
    }

    static func storeInUse(_ store: String) -> PersistenceError {
        PersistenceError(
            code: .storeInUse,
            message: "\(store) is open in another live container. Let that container and its contexts go "
                + "before opening the store again.")
    }

    static func corruptRecord(_ id: ObjectID, reason: String) -> PersistenceError {
        PersistenceError(
            code: .corruptStore, message: "The store's record \(id) is damaged: \(reason).",
            entityName: id.entityName, objectID: id)
    }

    static func unsupportedStoreURL(_ url: URL) -> PersistenceError {
        PersistenceError(
            code: .unsupportedFormat,
            message: "No store can open \(url.absoluteString): stores live in local files. Use a file URL "
                + "(URL(fileURLWithPath:)), or StoreDescription.inMemory or .discard.",
            fileURL: url)
    }

    static func invalidFetchRequest(_ message: String) -> PersistenceError {
        PersistenceError(code: .invalidFetchRequest, message: message)
    }
}
