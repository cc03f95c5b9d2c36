/// The entity hierarchy of a model with inheritance: each entity's flattened description and its
/// direct sub-entities. The descriptions a model hands out refer to it, so that
/// ``EntityDescription/superentity`` and ``EntityDescription/subentities`` can be read from any of
/// them; the descriptions it holds do not (a value cannot contain itself).
final class EntityHierarchy: Sendable {
    /// The flattened descriptions, without a hierarchy, by name.
    private let entities: [String: EntityDescription]
    /// The direct sub-entities of each entity, by name, in model order.
    private let subentityNames: [String: [String]]

    init(_ flattened: [EntityDescription]) {
        entities = Dictionary(flattened.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var children: [String: [String]] = [:]
        for entity in flattened {
            if let parent = entity.superentityName { children[parent, default: []].append(entity.name) }
        }
        subentityNames = children
    }

    /// The named entity's description, referring to this hierarchy.
    func entity(named name: String) -> EntityDescription? {
        guard var entity = entities[name] else { return nil }
        entity.hierarchy = self
        return entity
    }

    /// The direct sub-entities of the named entity, in model order.
    func subentities(of name: String) -> [EntityDescription] {
        (subentityNames[name] ?? []).compactMap { entity(named: $0) }
    }
}
