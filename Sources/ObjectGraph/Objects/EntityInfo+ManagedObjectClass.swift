extension EntityInfo {
    /// The `ManagedObject` subclass that represents the entity's objects.
    var managedObjectClass: ManagedObject.Type {
        // The model layer stores entity classes as `AnyClass` (it knows no objects), and only
        // `EntityDescription.managedObjectClass` sets them, to ManagedObject subclasses: the cast
        // cannot fail, and a bit cast keeps making an object free of a dynamic cast.
        guard let objectClass else { return ManagedObject.self }
        assert(objectClass is ManagedObject.Type, "Entity classes are ManagedObject subclasses.")
        return unsafeBitCast(objectClass, to: ManagedObject.Type.self)
    }
}
