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
    ///
    /// A class whose superclass is also among `types` is a sub-entity of the superclass's entity
    /// (`final class Dog: Animal`); a superclass that is not among them only lends its
    /// properties. A class declares its entity abstract with
    /// ``ManagedObject/isAbstractEntity``.
    ///
    /// - Throws: `PersistenceError.Code.invalidModel`, as ``init(entities:)``, and for a class
    ///   that is abstract only because it inherits `isAbstractEntity` from its superclass.
    public init(types: [ManagedObject.Type]) throws {
        let classes = Set(types.map { ObjectIdentifier($0) })
        let entities = try types.map { try $0.derivedEntityDescription(entityClasses: classes) }
        try Self.checkInheritedAbstraction(entities)
        try self.init(entities: entities)
    }

    /// Refuses an abstract leaf entity whose superentity is abstract too: its class most likely
    /// inherited `isAbstractEntity` from its superclass rather than meant it.
    private static func checkInheritedAbstraction(_ entities: [EntityDescription]) throws {
        let byName = Dictionary(entities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let parents = Set(entities.compactMap(\.superentityName))
        for entity in entities where entity.isAbstract && !parents.contains(entity.name) {
            guard let parent = entity.superentityName.flatMap({ byName[$0] }), parent.isAbstract else { continue }
            throw PersistenceError.invalidModel(
                "Entity '\(entity.name)' is abstract but no entity inherits from it: its class inherits "
                    + "isAbstractEntity from \(parent.name)'s class. Class properties are inherited, so declare "
                    + "it as `override class var isAbstractEntity: Bool { self == \(parent.name).self }`.",
                entity: entity.name)
        }
    }
}
