extension PersistenceError {
    /// The kind of a ``PersistenceError``; match on it with `==` or in a `catch` pattern.
    ///
    /// A struct over a private enumeration, so that new codes can be added without breaking
    /// exhaustive switches in callers.
    ///
    /// For example:
    /// ```swift
    /// do { try context.save() } catch PersistenceError.Code.validation { … }
    /// ```
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Value: String, Hashable, Sendable {
            case invalidModel
            case modelMismatch
            case unknownEntity
            case unknownKey
            case typeMismatch
            case validation
            case conflict
            case objectNotFound
            case storeInUse
            case storeLocked
            case storeClosed
            case ioFailure
            case corruptStore
            case unsupportedFormat
            case invalidFetchRequest
            case invalidPredicate
            case unsupportedPredicate
            case outOfRange
            case readOnlyStore
            case timedOut
        }

        private let value: Value
        private init(_ value: Value) { self.value = value }

        /// The model is inconsistent: a duplicate name, a relationship to an unknown entity, a
        /// missing or mismatched inverse, a default value of the wrong type.
        public static let invalidModel = Code(.invalidModel)
        /// The store holds data written with a different model.
        public static let modelMismatch = Code(.modelMismatch)
        /// An entity name or class that the model does not contain.
        public static let unknownEntity = Code(.unknownEntity)
        /// An attribute or relationship name that the entity does not have.
        public static let unknownKey = Code(.unknownKey)
        /// A value whose type does not match the attribute or relationship.
        public static let typeMismatch = Code(.typeMismatch)
        /// One or more objects failed validation at save.
        public static let validation = Code(.validation)
        /// An object changed in the store since this context read it.
        public static let conflict = Code(.conflict)
        /// No object with that ID exists.
        public static let objectNotFound = Code(.objectNotFound)
        /// The store is already open in another live container.
        public static let storeInUse = Code(.storeInUse)
        /// The store file is locked by another container or process.
        public static let storeLocked = Code(.storeLocked)
        /// The store was closed; no more reads or saves are possible.
        public static let storeClosed = Code(.storeClosed)
        /// Reading or writing the store's medium failed.
        public static let ioFailure = Code(.ioFailure)
        /// The store's data is damaged.
        public static let corruptStore = Code(.corruptStore)
        /// The store's format or version is not one this library reads.
        public static let unsupportedFormat = Code(.unsupportedFormat)
        /// A fetch request that cannot run, such as one for an entity outside the model.
        public static let invalidFetchRequest = Code(.invalidFetchRequest)
        /// A predicate format string that does not parse, or whose arguments or substitution
        /// variables do not fit its placeholders.
        public static let invalidPredicate = Code(.invalidPredicate)
        /// A predicate construct that parses but that this library does not evaluate, such as
        /// arithmetic, `FUNCTION(…)` or array indexing.
        public static let unsupportedPredicate = Code(.unsupportedPredicate)
        /// An index outside a collection's bounds, such as a position past the end of an
        /// ordered to-many relationship.
        public static let outOfRange = Code(.outOfRange)
        /// A save or other write to a store opened read-only.
        public static let readOnlyStore = Code(.readOnlyStore)
        /// An operation that took longer than its limit: a database server's statement timeout, or
        /// a wait for a free connection of a pool. Nothing was changed; try again, or raise the limit.
        public static let timedOut = Code(.timedOut)

        /// A readable description, for logs and debugging.
        public var description: String { value.rawValue }

        /// Matches an error against a code in a `catch` pattern.
        public static func ~= (code: Code, error: any Error) -> Bool {
            (error as? PersistenceError)?.code == code
        }
    }
}
