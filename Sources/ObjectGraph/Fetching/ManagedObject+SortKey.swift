extension ManagedObject {
    /// The sort key that `keyPath` names: `objectID` for the object's ID (Core Data sorts by it),
    /// else the `@Attribute` or `@Relationship` property it reads (see
    /// ``propertyName(readBy:checkingStoredValue:)``).
    static func sortKey<Object: ManagedObject>(
        readBy keyPath: PartialKeyPath<Object>
    ) -> Result<String, KeyPathProbeProblem> {
        if keyPath == \Object.objectID as PartialKeyPath<Object> {
            return .success(CompiledSort.objectIDKey)
        }
        return propertyName(readBy: keyPath)
    }
}
