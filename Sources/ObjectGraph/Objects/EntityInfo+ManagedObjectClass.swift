extension EntityInfo {
    /// The `ManagedObject` subclass that represents the entity's objects.
    var managedObjectClass: ManagedObject.Type { Self.managedObjectClass(of: objectClass) }

    /// A model-layer entity class (`nil`: the base class) as the subclass it is.
    static func managedObjectClass(of objectClass: AnyClass?) -> ManagedObject.Type {
        // The model layer stores entity classes as `AnyClass` (it knows no objects), and only
        // ManagedObject.Type values are stored there (EntityDescription+ManagedObjectClass and
        // ManagedObject+Derivation): the cast cannot fail, and a bit cast keeps making an
        // object free of a dynamic cast. No caller's value reaches it: the model layer's setter
        // and initializer that take an `AnyClass` are internal.
        guard let objectClass else { return ManagedObject.self }
        assert(objectClass is ManagedObject.Type, "Entity classes are ManagedObject subclasses.")
        return unsafeBitCast(objectClass, to: ManagedObject.Type.self)
    }
}
