import Foundation

/// An entity compiled for fast access: property slots, defaults and resolved relationships.
///
/// Built once by ``ManagedObjectModel`` and shared by every object of the entity. Values live in
/// arrays indexed by slot: attributes first, in model order, then relationships.
final class EntityInfo: Sendable {
    /// A relationship with its destination and inverse resolved to indexes. A class, so that
    /// reading one while an object's relationship changes costs one reference count rather than
    /// one for each string of the description.
    final class ResolvedRelationship: Sendable {
        let description: RelationshipDescription
        let destinationIndex: Int
        /// The inverse relationship's slot in the destination entity, if there is an inverse.
        let inverseSlot: Int?
        /// The names of the destination's sub-entities (at any depth), whose objects the
        /// relationship also holds; empty without inheritance.
        let destinationSubentityNames: Set<String>
        /// The destination's attribute count (its relationships' slots follow them).
        let destinationAttributeCount: Int

        init(
            description: RelationshipDescription, destinationIndex: Int, inverseSlot: Int?,
            destinationSubentityNames: Set<String> = [], destinationAttributeCount: Int = 0
        ) {
            self.destinationAttributeCount = destinationAttributeCount
            self.description = description
            self.destinationIndex = destinationIndex
            self.inverseSlot = inverseSlot
            self.destinationSubentityNames = destinationSubentityNames
        }
    }

    let description: EntityDescription
    let index: Int
    /// The class of the entity's objects; `nil` for the base class.
    let objectClass: AnyClass?
    let attributeCount: Int
    let slotByName: [String: Int]
    let defaultValues: [StoreValue]
    /// Relationships by slot minus `attributeCount`; filled in once every entity exists.
    let relationships: [ResolvedRelationship]
    /// Whether a relationship has the `deny` delete rule (a delete must then check it).
    let hasDenyRule: Bool
    /// The compiled `pattern` of each attribute that has one, by slot.
    let patterns: [Int: NSRegularExpression]
    /// The slots of attributes with validation rules.
    let validatedSlots: [Int]
    /// The slots of the attributes that must have a value.
    let requiredAttributeSlots: [Int]

    /// Property names as UTF-8, by slot, for readers that match keys without allocating.
    let propertyNameBytes: [[UInt8]]
    /// Where the entity stands in the model's hierarchy (`EntityInfo+Inheritance.swift`).
    let lineage: Lineage

    /// Slots of typed-subclass property wrappers, keyed by their storage key path.
    let keyPathSlots = Locked(KeyPathSlots())

    /// Wrapper slots by storage key path: first by the key path object's identity (a short scan,
    /// no hashing; the entry keeps the object alive so its identity is never reused), then by value.
    struct KeyPathSlots: @unchecked Sendable {
        // `@unchecked` is safe: the struct lives only inside the `Locked` above, and key paths to
        // stored properties are immutable objects without captured state.
        // Identities and slots in a plain array, scanned without reference counting; `byValue`
        // keeps each key path alive, so that an identity is never reused while it is listed.
        private var byIdentity: [(identity: ObjectIdentifier, slot: Int)] = []
        private var byValue: [AnyKeyPath: Int] = [:]
        private static let identityLimit = 256

        func slot(for keyPath: AnyKeyPath) -> Int? {
            let identity = ObjectIdentifier(keyPath)
            for entry in byIdentity where entry.identity == identity { return entry.slot }
            return byValue[keyPath]
        }

        mutating func remember(_ slot: Int, for keyPath: AnyKeyPath) {
            let isNew = byValue.updateValue(slot, forKey: keyPath) == nil
            if isNew && byIdentity.count < Self.identityLimit {
                byIdentity.append((ObjectIdentifier(keyPath), slot))
            }
        }
    }

    init(
        description: EntityDescription, index: Int, relationships: [ResolvedRelationship],
        lineage: Lineage = Lineage()
    ) {
        self.description = description
        self.index = index
        self.lineage = lineage
        self.objectClass = description.objectClass
        self.attributeCount = description.attributes.count
        var slots: [String: Int] = [:]
        for (slot, attribute) in description.attributes.enumerated() { slots[attribute.name] = slot }
        for (offset, relationship) in description.relationships.enumerated() {
            slots[relationship.name] = description.attributes.count + offset
        }
        self.slotByName = slots
        self.defaultValues =
            description.attributes.map(\.defaultValue)
            + description.relationships.map { $0.isToMany ? .objects([]) : .null }
        self.relationships = relationships
        self.hasDenyRule = relationships.contains { $0.description.deleteRule == .deny }
        var patterns: [Int: NSRegularExpression] = [:]
        for (slot, attribute) in description.attributes.enumerated() {
            // The model checked that every pattern compiles.
            if let pattern = attribute.validation.pattern, let compiled = try? NSRegularExpression(pattern: pattern) {
                patterns[slot] = compiled
            }
        }
        self.patterns = patterns
        self.validatedSlots = description.attributes.indices.filter { !description.attributes[$0].validation.isEmpty }
        self.requiredAttributeSlots = description.attributes.indices.filter { !description.attributes[$0].isOptional }
        let names = description.attributes.map(\.name) + description.relationships.map(\.name)
        self.propertyNameBytes = names.map { Array($0.utf8) }
    }

    /// An entity outside any model, for objects created without a context; its relationships
    /// resolve once the object is inserted into a context.
    convenience init(detached description: EntityDescription) {
        let relationships = description.relationships.map {
            ResolvedRelationship(description: $0, destinationIndex: -1, inverseSlot: nil)
        }
        self.init(description: description, index: -1, relationships: relationships)
    }

    var materializingDescription: EntityDescription {
        description.materializing(boundTo: self)
    }

    var name: String { description.name }
    var propertyCount: Int { defaultValues.count }

    func isAttribute(_ slot: Int) -> Bool { slot < attributeCount }

    func attribute(at slot: Int) -> AttributeDescription { description.attributes[slot] }

    func relationship(at slot: Int) -> ResolvedRelationship { relationships[slot - attributeCount] }

    func propertyName(at slot: Int) -> String {
        isAttribute(slot) ? description.attributes[slot].name : relationship(at: slot).description.name
    }
}
