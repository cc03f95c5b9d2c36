extension ManagedObject {
    /// The entity description derived from this subclass's `@Attribute` and `@Relationship`
    /// properties, in declaration order (superclass properties first), with the class's
    /// ``indexes`` unless `withIndexes` is false (a key path probe derives the entity to name an
    /// index's key paths).
    ///
    /// A superclass in `entityClasses` (the model's other classes) is the entity's superentity:
    /// the description then has only the properties declared below it, and names it in
    /// `superentityName`. Superclasses that are not entities contribute their properties.
    ///
    /// - Throws: `PersistenceError.Code.invalidModel` for a wrapped property whose declaration
    ///   was not recorded (a wrapper made other than by its initializers).
    static func derivedEntityDescription(
        entityClasses: Set<ObjectIdentifier> = [], withIndexes: Bool = true
    ) throws -> EntityDescription {
        // The prototype's wrappers record their declarations as they are initialized: the most
        // derived class's properties first, each class's in declaration order (Mirror's order).
        let (prototype, declarations) = PropertyDeclarations.recording {
            self.init(
                entity: EntityDescription(
                    name: entityName, attributes: [], relationships: [], uniquenessConstraints: [], objectClass: self),
                insertInto: nil)
        }
        var levels: [[DerivedProperty]] = []
        var next = 0
        var mirror: Mirror? = Mirror(reflecting: prototype)
        var superentity: ManagedObject.Type?
        while let current = mirror, current.subjectType != ManagedObject.self {
            if current.subjectType != self, let type = current.subjectType as? ManagedObject.Type,
                entityClasses.contains(ObjectIdentifier(type))
            {
                superentity = type
                break
            }
            var level: [DerivedProperty] = []
            for child in current.children {
                guard let label = child.label, label.hasPrefix("_"), child.value is DerivableProperty else { continue }
                guard next < declarations.count, declarations[next].wrapperType == type(of: child.value) else {
                    throw PersistenceError.invalidModel(
                        "The declaration of \(current.subjectType).\(label.dropFirst()) was not recorded while "
                            + "deriving entity '\(entityName)'. Declare @Attribute and @Relationship properties "
                            + "with their wrappers' initializers only.",
                        entity: entityName, key: String(label.dropFirst()))
                }
                level.append(declarations[next].derive(String(label.dropFirst())))
                next += 1
            }
            levels.append(level)
            mirror = current.superclassMirror
        }
        var attributes: [AttributeDescription] = []
        var relationships: [RelationshipDescription] = []
        var initialValues: [EntityDescription.InitialValue] = []
        for property in levels.reversed().joined() {
            switch property {
            case .attribute(let attribute, let initialValue):
                if let initialValue {
                    initialValues.append(EntityDescription.InitialValue(slot: attributes.count, make: initialValue))
                }
                attributes.append(attribute)
            case .relationship(let relationship): relationships.append(relationship)
            }
        }
        var entity = EntityDescription(
            name: entityName, attributes: attributes, relationships: relationships,
            uniquenessConstraints: uniquenessConstraints, objectClass: self)
        entity.initialValues = initialValues
        entity.renamingIdentifier = renamingIdentifier
        entity.superentityName = superentity?.entityName
        entity.isAbstract = isAbstractEntity
        if withIndexes { entity.indexes = indexes }
        return entity
    }

    /// The slot of a typed property, from its wrapper's storage key path. The caller caches it
    /// in the instance's wrapper, so later accesses need no lookup.
    @usableFromInline
    func resolveWrapperSlot<Object: ManagedObject, Wrapper: SlotCachingWrapper>(
        _ storage: ReferenceWritableKeyPath<Object, Wrapper>
    ) -> Int {
        info.keyPathSlots.withLock { $0.slot(for: storage) } ?? resolveSlotByName(storage)
    }

    private func resolveSlotByName<Object: ManagedObject, Wrapper: SlotCachingWrapper>(
        _ storage: ReferenceWritableKeyPath<Object, Wrapper>
    ) -> Int {
        guard let name = Self.propertyName(of: storage, in: info), let slot = info.slotByName[name] else {
            preconditionFailure(
                "A property of \(type(of: self)) is not part of entity '\(info.name)'. Build the model from "
                    + "the class (ManagedObjectModel(\(type(of: self)).self)) so that it includes every property.")
        }
        info.keyPathSlots.withLock { $0.remember(slot, for: storage) }
        return slot
    }

    /// The name of the property whose wrapper `storage` points at: marks the wrapper in a
    /// throwaway instance and finds the marked child by reflection.
    private static func propertyName<Object: ManagedObject, Wrapper: SlotCachingWrapper>(
        of storage: ReferenceWritableKeyPath<Object, Wrapper>, in info: EntityInfo
    ) -> String? {
        guard
            let probe = info.managedObjectClass.init(entity: info.materializingDescription, insertInto: nil) as? Object
        else { return nil }
        var wrapper = probe[keyPath: storage]
        wrapper.cacheSlot(Self.probeMark)
        probe[keyPath: storage] = wrapper
        var mirror: Mirror? = Mirror(reflecting: probe)
        while let current = mirror {
            for child in current.children {
                if let property = child.value as? SlotCachingWrapper, property.cachedSlot == Self.probeMark,
                    let label = child.label, label.hasPrefix("_")
                {
                    return String(label.dropFirst())
                }
            }
            mirror = current.superclassMirror
        }
        return nil
    }

    private static var probeMark: Int { WrapperSlot.probeMarkSlot }

    /// Explains why a typed attribute cannot be read.
    @usableFromInline
    func unreadableValueMessage<Value>(at slot: Int, as type: Value.Type) -> String {
        let key = info.propertyName(at: slot)
        if values[slot].isNull {
            return "\(info.name).\(key) has no value yet. Set it before reading it, or give the attribute a default."
        }
        return "\(info.name).\(key) holds a \(values[slot].kindName) that cannot be read as \(Value.self)."
    }
}
