/// A context's registered objects, by entity and key: per entity, chunks of 256 slots addressed
/// by key, so that finding an object is two array reads and objects fetched in key order are
/// registered in sequence (8 bytes an object, no hashing).
///
/// A `[ObjectID: ManagedObject]` dictionary stored each ID beside its object (32 bytes a bucket)
/// and scattered consecutive keys across memory; at 100,000 objects, looking them up cost more
/// than creating them.
///
/// Noncopyable: its entities are shared objects, so a copy would not be independent.
struct ObjectRegistry: ~Copyable {
    fileprivate static let chunkShift = ObjectRegistryChunks.shift
    fileprivate static let chunkSize = ObjectRegistryChunks.slotsPerChunk
    /// Keys beyond this many chunks (2^24 keys) go to a dictionary.
    fileprivate static let maxChunks = ObjectRegistryChunks.maxChunks

    /// One entity's objects. A class, so that a lookup takes one reference, not one for each of
    /// its fields, and changes happen in place.
    ///
    /// The chunks hold their objects as unmanaged, unretained references: the registry holds
    /// objects weakly, as Core Data's contexts do (a context keeps the objects with unsaved
    /// changes in its change sets, and the caller keeps the others it still uses). An object
    /// removes itself in its `deinit` (`ManagedObject.deinit`), so no slot dangles.
    ///
    /// The chunks are memory the registry allocates and frees (`ObjectRegistryChunks`), plain
    /// words without reference counts or copy-on-write checks: registering an object is a store
    /// through two pointers. As nested arrays (`[[Unmanaged<ManagedObject>?]]`), the retains and
    /// uniqueness checks of both arrays made a fetch's lookup and registration about 190
    /// instructions an object; now about 90. A fetch of 392 objects with keys
    /// spread over 100,000 fills about 40,000 free slots, which cost nothing to free. (Chunks of
    /// 64 slots measured no faster: 1,563 of them for 100,000 keys.)
    fileprivate final class EntityObjects {
        let name: String
        // Unchecked: read on every lookup; one context's, in one domain, no access overlaps.
        @exclusivity(unchecked) var chunks = ObjectRegistryChunks()
        // Unchecked: read on every lookup; one context's, in one domain, no access overlaps.
        @exclusivity(unchecked) var overflow: [Int64: Unmanaged<ManagedObject>] = [:]
        /// The entity's description bound for materializing (`EntityInfo.materializingDescription`),
        /// made on first use: objects read one at a time (relationships, cascades) share it.
        var materializing: EntityDescription?

        init(name: String) { self.name = name }
    }

    /// By entity index in the model; `nil` for entities with no object registered yet.
    private var entities: [EntityObjects?] = []
    private var entityIndexByName: [String: Int] = [:]
    private(set) var count = 0
    /// Strong references to the registered objects, when the context retains them
    /// (`ManagedContext.retainsRegisteredObjects`); `nil` when it holds them weakly.
    var retained: [ObjectIdentifier: ManagedObject]?

    /// The registered objects, in entity and key order.
    var values: [ManagedObject] {
        var objects: [ManagedObject] = []
        objects.reserveCapacity(count)
        forEach { objects.append($0) }
        return objects
    }

    /// Calls `body` with each registered object, in entity and key order, without collecting
    /// them (nor retaining them: `body` must not unregister any).
    func forEach(_ body: (ManagedObject) -> Void) {
        for case let entity? in entities {
            entity.chunks.forEach { body(Unmanaged<ManagedObject>.fromOpaque($0).takeUnretainedValue()) }
            for (_, object) in entity.overflow.sorted(by: { $0.key < $1.key }) { body(object.takeUnretainedValue()) }
        }
    }

    /// Removes `object` if it is the one registered under its ID (an object leaving memory).
    mutating func forget(_ object: ManagedObject) {
        let entityIndex = object.info.index
        let key = object.objectKey
        guard entityIndex >= 0, entityIndex < entities.count, let entity = entities[entityIndex] else { return }
        if entity.remove(key: key, ifHolding: object) { count -= 1 }
    }

    /// The object registered for the object with `key` in the entity at `entityIndex`.
    @inline(__always)
    func object(entityIndex: Int, key: Int64) -> ManagedObject? {
        guard entityIndex < entities.count, let entity = entities[entityIndex], key >= 1 else { return nil }
        let index = Int(key - 1)
        let chunk = index >> Self.chunkShift
        guard chunk < Self.maxChunks else { return entity.overflow[key]?.takeUnretainedValue() }
        return entity.chunks[chunk, index & (Self.chunkSize - 1)].map {
            Unmanaged<ManagedObject>.fromOpaque($0).takeUnretainedValue()
        }
    }

    subscript(id: ObjectID) -> ManagedObject? {
        get {
            guard let entityIndex = entityIndex(named: id.entityName) else { return nil }
            return object(entityIndex: entityIndex, key: id.key)
        }
        set {
            if let newValue {
                assert(newValue.objectID == id, "Objects are registered under their own IDs.")
                register(newValue)
            } else if let entityIndex = entityIndex(named: id.entityName) {
                remove(entityIndex: entityIndex, key: id.key)
            }
        }
    }

    mutating func removeAll() {
        entities = []
        entityIndexByName = [:]
        count = 0
        if retained != nil { retained = [:] }
    }

    private func entityIndex(named name: String) -> Int? {
        // A linear search beats hashing the name for the few entities most models have.
        if entities.count <= 8 {
            for (index, entity) in entities.enumerated() where entity?.name == name { return index }
            return nil
        }
        return entityIndexByName[name]
    }

    /// Registers `object` under its own ID, replacing any object registered there.
    mutating func register(_ object: ManagedObject) {
        let entityIndex = object.info.index
        let key = object.objectKey
        precondition(entityIndex >= 0 && key >= 1, "Registered objects belong to the model and have keys.")
        let entity = objects(ofEntityAt: entityIndex, of: object.info)
        if entity.set(object, forKey: key) { count += 1 }
        retained?[ObjectIdentifier(object)] = object
    }

    /// The objects of `info`'s entity, at `entityIndex` (a valid index), made empty on first use.
    /// (Given the entity, not its name: passing the name retained and released it per object.)
    private mutating func objects(ofEntityAt entityIndex: Int, of info: EntityInfo) -> EntityObjects {
        if entityIndex >= entities.count {
            entities.append(contentsOf: repeatElement(nil, count: entityIndex - entities.count + 1))
            if entities.count > 8 {
                for case let (index, entity?) in entities.enumerated() { entityIndexByName[entity.name] = index }
            }
        }
        if let existing = entities[entityIndex] { return existing }
        let entity = EntityObjects(name: info.name)
        entities[entityIndex] = entity
        if entities.count > 8 { entityIndexByName[entity.name] = entityIndex }
        return entity
    }

    /// Removes `object`, registered under its own ID, without looking its entity up by name.
    mutating func remove(_ object: ManagedObject) {
        let entityIndex = object.info.index
        guard entityIndex >= 0 else { return }
        remove(entityIndex: entityIndex, key: object.objectKey)
    }

    /// `info.materializingDescription`, made once per entity and context.
    mutating func materializingDescription(of info: EntityInfo) -> EntityDescription {
        let entityIndex = info.index
        guard entityIndex >= 0 else { return info.materializingDescription }
        let entity = objects(ofEntityAt: entityIndex, of: info)
        if let cached = entity.materializing, cached.boundInfo === info { return cached }
        let made = info.materializingDescription
        entity.materializing = made
        return made
    }

    private mutating func remove(entityIndex: Int, key: Int64) {
        guard key >= 1, entityIndex < entities.count, let entity = entities[entityIndex] else { return }
        if retained != nil, let object = object(entityIndex: entityIndex, key: key) {
            retained?[ObjectIdentifier(object)] = nil
        }
        if entity.remove(key: key) { count -= 1 }
    }
}

extension ObjectRegistry.EntityObjects {
    /// Stores `object` for `key`; whether the key was free.
    func set(_ object: ManagedObject, forKey key: Int64) -> Bool {
        let index = Int(key - 1)
        let chunk = index >> ObjectRegistry.chunkShift
        guard chunk < ObjectRegistry.maxChunks else {
            return overflow.updateValue(.passUnretained(object), forKey: key) == nil
        }
        let slot = chunks.slot(chunk: chunk, offset: index & (ObjectRegistry.chunkSize - 1))
        let address = UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque())
        let previous = slot.pointee
        if previous == address { return false }
        slot.pointee = address
        return previous == nil
    }

    /// Removes the object for `key` (only if it is `object`, when given); whether one was removed.
    func remove(key: Int64, ifHolding object: ManagedObject? = nil) -> Bool {
        guard key >= 1 else { return false }
        let index = Int(key - 1)
        let chunk = index >> ObjectRegistry.chunkShift
        let expected = object.map { Unmanaged.passUnretained($0).toOpaque() }
        guard chunk < ObjectRegistry.maxChunks else {
            guard let held = overflow[key], expected == nil || held.toOpaque() == expected else { return false }
            overflow[key] = nil
            return true
        }
        let offset = index & (ObjectRegistry.chunkSize - 1)
        guard let held = chunks[chunk, offset], expected.map({ held == UnsafeRawPointer($0) }) ?? true else {
            return false
        }
        chunks.slot(chunk: chunk, offset: offset).pointee = nil
        return true
    }
}
