extension ManagedObject {
    /// The sort key that `keyPath` names: `objectID` for the object's ID (Core Data sorts by it),
    /// else the `@Attribute` or `@Relationship` property it reads (see
    /// ``propertyName(readBy:checkingStoredValue:)``).
    static func sortKey<Object: ManagedObject, Value>(
        readBy keyPath: KeyPath<Object, Value>
    ) -> Result<String, KeyPathProbeProblem> {
        if Value.self == ObjectID.self, keyPath as AnyKeyPath == \Object.objectID as AnyKeyPath {
            return .success(CompiledSort.objectIDKey)
        }
        return propertyName(readBy: keyPath)
    }
}
