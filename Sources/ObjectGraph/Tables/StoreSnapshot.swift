/// The complete committed contents of a store at one moment, for one model.
///
/// Stores build a snapshot when they load and receive the resulting one with each
/// ``StoreChangeSet``. Snapshots are values: copying one is O(1), and changing a copy copies only
/// the parts that change.
///
/// For example, a loader:
/// ```swift
/// var snapshot = StoreSnapshot(model: model)
/// for record in decodedRecords { try snapshot.insert(record) }
/// ```
public struct StoreSnapshot: Sendable {
    /// The model the records conform to.
    public let model: ManagedObjectModel
    var tables: [EntityTable]
    /// Key/value pairs kept in the store beside the objects (an app's import marker, a sync
    /// token); empty unless set. Stores persist it with the objects.
    ///
    /// Core Data: the store's metadata dictionary.
    public var metadata: [String: String] = [:]

    /// Creates an empty snapshot for `model`.
    public init(model: ManagedObjectModel) {
        self.model = model
        self.tables = model.infos.map { EntityTable(indexing: $0) }
    }

    /// The number of objects of every entity.
    public var count: Int { tables.reduce(0) { $0 + $1.count } }

    /// The number of objects of the entity named `entityName` (0 for an unknown entity).
    public func count(ofEntity entityName: String) -> Int {
        model.info(named: entityName).map { tables[$0.index].count } ?? 0
    }

    /// The record with the given ID, if the snapshot holds it.
    ///
    /// - Complexity: O(1).
    public func record(for objectID: ObjectID) -> StoreRecord? {
        guard let info = model.info(named: objectID.entityName), let row = tables[info.index][objectID.key] else {
            return nil
        }
        return StoreRecord(objectID: objectID, version: row.version, values: row.values)
    }

    /// Calls `body` with every record of the entity named `entityName`, in key order.
    public func forEachRecord(ofEntity entityName: String, _ body: (StoreRecord) throws -> Void) rethrows {
        guard let info = model.info(named: entityName) else { return }
        try tables[info.index].forEach { key, row in
            try body(
                StoreRecord(
                    objectID: ObjectID(entityName: info.name, key: key), version: row.version, values: row.values))
        }
    }

    /// The key the next object of the entity gets; stores persist it so keys are never reused.
    public func nextKey(ofEntity entityName: String) -> Int64 {
        model.info(named: entityName).map { tables[$0.index].nextKey } ?? 1
    }

    /// Raises the next key of an entity (a loader restoring what a store persisted).
    public mutating func reserveKeys(ofEntity entityName: String, below key: Int64) {
        guard let info = model.info(named: entityName) else { return }
        tables[info.index].nextKey = min(max(tables[info.index].nextKey, key), EntityTable.maxKey + 1)
    }

    /// Adds a record read from a store.
    ///
    /// - Throws: `PersistenceError.Code.corruptStore` if the entity is unknown, the key is not
    ///   positive or already present, or the values do not fit the entity's properties.
    public mutating func insert(_ record: StoreRecord) throws {
        guard let info = model.info(named: record.objectID.entityName) else {
            throw PersistenceError.corruptRecord(record.objectID, reason: "its entity is not in the model")
        }
        guard record.objectID.key >= 1, record.objectID.key <= EntityTable.maxKey else {
            throw PersistenceError.corruptRecord(
                record.objectID, reason: "its key is outside the valid range 1...\(EntityTable.maxKey)")
        }
        guard keySpaceAdmits(record.objectID.key, table: info.index) else {
            throw PersistenceError.corruptRecord(
                record.objectID,
                reason: "its key leaves the store's keys sparser than the limit (one chunk of 512 keys "
                    + "per row, or \(Self.keySpaceAllowance) chunks in all)")
        }
        guard tables[info.index][record.objectID.key] == nil else {
            throw PersistenceError.corruptRecord(record.objectID, reason: "the store holds two objects with this ID")
        }
        if let problem = info.problem(with: record.values) {
            throw PersistenceError.corruptRecord(record.objectID, reason: problem)
        }
        tables[info.index].append(
            EntityTable.Row(version: record.version, values: record.values), forKey: record.objectID.key)
    }

    /// Every relationship that points at an object the snapshot does not hold, as
    /// (source object, relationship name, missing destination).
    public func danglingReferences() -> [(ObjectID, String, ObjectID)] {
        var dangling: [(ObjectID, String, ObjectID)] = []
        for info in model.infos where !info.relationships.isEmpty {
            // Looked up once per entity, not once per row (a store opens with this check).
            let destinations = info.relationships.map { tables[$0.destinationIndex] }
            tables[info.index].forEach { key, row in
                for (offset, relationship) in info.relationships.enumerated() {
                    let destination = destinations[offset]
                    func check(_ target: ObjectID) {
                        if target.entityName == relationship.description.destination {
                            guard destination[target.key] == nil else { return }
                        } else if relationship.accepts(entityNamed: target.entityName),
                            let targetInfo = model.info(named: target.entityName)
                        {
                            // An object of one of the destination's sub-entities.
                            guard tables[targetInfo.index][target.key] == nil else { return }
                        }
                        dangling.append(
                            (ObjectID(entityName: info.name, key: key), relationship.description.name, target))
                    }
                    switch row.values[info.attributeCount + offset] {
                    case .object(let id): check(id)
                    case .objects(let ids): for id in ids { check(id) }
                    default: break
                    }
                }
            }
        }
        return dangling
    }

    /// The same records, bound to `other`, a model with the same schema (possibly other classes
    /// or another entity order).
    ///
    /// - Throws: `PersistenceError.Code.modelMismatch` listing the differences.
    func rebound(to other: ManagedObjectModel) throws -> StoreSnapshot {
        let differences = other.schemaDifferences(from: model)
        guard differences.isEmpty else { throw PersistenceError.modelMismatch(differences) }
        var result = StoreSnapshot(model: other)
        result.metadata = metadata
        for info in other.infos {
            result.tables[info.index] = tables[model.info(named: info.name)!.index].reindexed(for: info)
        }
        return result
    }
}

extension EntityInfo {
    /// Why `values` cannot be a record of this entity, or `nil` if they can.
    func problem(with values: [StoreValue]) -> String? {
        guard values.count == propertyCount else {
            return "it has \(values.count) values, but entity '\(name)' has \(propertyCount) properties"
        }
        for (slot, value) in values.enumerated() {
            if isAttribute(slot) {
                let attribute = attribute(at: slot)
                if !value.isNull && !attribute.type.accepts(value) {
                    return "attribute '\(attribute.name)' holds a \(value.kindName), not a \(attribute.type)"
                }
                continue
            }
            let resolved = relationship(at: slot)
            let relationship = resolved.description
            switch value {
            case .null where !relationship.isToMany: continue
            case .object(let id) where !relationship.isToMany && resolved.accepts(entityNamed: id.entityName): continue
            case .objects(let ids)
            where relationship.isToMany && ids.allSatisfy({ resolved.accepts(entityNamed: $0.entityName) }):
                continue
            default:
                return
                    "relationship '\(relationship.name)' holds \(value.kindName), not \(relationship.destination) objects"
            }
        }
        return nil
    }
}
