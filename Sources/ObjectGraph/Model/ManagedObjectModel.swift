/// The schema of an object graph: its entities, their attributes and their relationships.
///
/// A model validates itself on creation and is immutable afterwards, so it can be shared freely.
/// Derive it from typed subclasses, or build it from entity descriptions.
///
/// For example:
/// ```swift
/// let model = try ManagedObjectModel(Fruit.self, Basket.self)
/// ```
///
/// Core Data: `NSManagedObjectModel`.
public struct ManagedObjectModel: Sendable, CustomStringConvertible {
    let infos: [EntityInfo]
    private let infoByName: [String: EntityInfo]
    private let infoByClass: [ObjectIdentifier: EntityInfo]

    /// Creates a model from entity descriptions.
    ///
    /// - Throws: `PersistenceError.Code.invalidModel` naming the first inconsistency: an empty or
    ///   duplicate name, a relationship to an unknown entity, a missing or mismatched inverse, a
    ///   default value of the wrong type, a uniqueness constraint on an unknown attribute, an
    ///   unknown superentity, a cycle of superentities, a sub-entity property that redeclares an
    ///   inherited one.
    ///
    /// A sub-entity (one with a ``EntityDescription/superentityName``) lists only its own
    /// properties, as a Core Data model file does; the model's description of it has the
    /// inherited ones first (see Docs/Inheritance.md).
    public init(entities: [EntityDescription]) throws {
        var entities = try Self.flattenHierarchy(entities)
        try Self.validate(entities)
        let lineages = Self.lineages(of: entities)
        entities = Self.linkHierarchy(entities)
        let indexByName = Dictionary(uniqueKeysWithValues: entities.enumerated().map { ($1.name, $0) })
        var infos: [EntityInfo] = []
        for (index, entity) in entities.enumerated() {
            let relationships = entity.relationships.map { relationship in
                let destinationIndex = indexByName[relationship.destination]!
                let destination = entities[destinationIndex]
                let inverseSlot = relationship.inverse.flatMap { inverse in
                    destination.relationships.firstIndex { $0.name == inverse }.map {
                        destination.attributes.count + $0
                    }
                }
                return EntityInfo.ResolvedRelationship(
                    description: relationship, destinationIndex: destinationIndex, inverseSlot: inverseSlot,
                    destinationSubentityNames: Set(
                        lineages[destinationIndex].subentityIndexes.map { entities[$0].name }),
                    destinationAttributeCount: destination.attributes.count)
            }
            infos.append(
                EntityInfo(description: entity, index: index, relationships: relationships, lineage: lineages[index]))
        }
        self.infos = infos
        self.infoByName = Dictionary(uniqueKeysWithValues: infos.map { ($0.name, $0) })
        var byClass: [ObjectIdentifier: EntityInfo] = [:]
        for info in infos {
            if let objectClass = info.objectClass { byClass[ObjectIdentifier(objectClass)] = info }
        }
        self.infoByClass = byClass
    }

    /// The entities, in the order they were given.
    public var entities: [EntityDescription] { infos.map(\.description) }

    /// The entities by name.
    public var entitiesByName: [String: EntityDescription] { infoByName.mapValues(\.description) }

    /// The entity with the given name, if the model has one.
    public func entity(named name: String) -> EntityDescription? { infoByName[name]?.description }

    /// Up to this many entities, lookups compare each entity rather than hash: objects are
    /// created and registered by looking up their entity, and most models are this small.
    private static let linearSearchLimit = 8

    func info(named name: String) -> EntityInfo? {
        guard infos.count <= Self.linearSearchLimit else { return infoByName[name] }
        for info in infos where info.name == name { return info }
        return nil
    }

    /// The entity whose objects are of class `type` (never the base class's).
    func info(forClass type: AnyClass) -> EntityInfo? {
        let id = ObjectIdentifier(type)
        guard infos.count <= Self.linearSearchLimit else { return infoByClass[id] }
        // The last entity of a class, as in `infoByClass`.
        for info in infos.reversed() {
            if let objectClass = info.objectClass, ObjectIdentifier(objectClass) == id { return info }
        }
        return nil
    }

    /// A readable description, for logs and debugging.
    public var description: String {
        "ManagedObjectModel(\(infos.map(\.name).joined(separator: ", ")))"
    }
}
