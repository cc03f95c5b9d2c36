extension ManagedObjectModel {
    /// The entity represented by the given `ManagedObject` subclass, if the model has one.
    public func entity(for type: ManagedObject.Type) -> EntityDescription? {
        info(forClass: type)?.description
    }
}

extension ManagedObjectModel {
    /// Creates a model whose entities are derived from `ManagedObject` subclasses.
    ///
    /// For example:
    /// ```swift
    /// let model = try ManagedObjectModel(Fruit.self, Basket.self)
    /// ```
    ///
    /// - Throws: `PersistenceError.Code.invalidModel`, as ``init(entities:)``.
    public init(_ types: ManagedObject.Type...) throws {
        try self.init(types: types)
    }

    /// Creates a model whose entities are derived from `ManagedObject` subclasses.
    public init(types: [ManagedObject.Type]) throws {
        try self.init(entities: types.map { try $0.derivedEntityDescription() })
    }
}
