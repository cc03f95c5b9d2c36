import Foundation

extension StoreSnapshot {
    /// The snapshot's records as records of `mapping.target`, made by `mapping` (whose source
    /// must be this snapshot's schema): keys, versions, next keys and metadata are kept.
    ///
    /// All or nothing: the snapshot itself is never changed.
    ///
    /// - Parameter progress: called with the number of objects migrated so far and the total,
    ///   every few thousand objects and once at the end.
    /// - Throws: `PersistenceError.Code.modelMismatch` listing every problem found in the data,
    ///   each naming the entity and property and how many objects are affected: a required
    ///   attribute without a default that stored objects have no value for, a to-many
    ///   relationship made to-one that objects hold several objects in, a new required
    ///   relationship that objects have nothing in, a new uniqueness constraint that objects
    ///   break (listing them), an entity made abstract that stored objects are of.
    /// - Complexity: O(*n*) in the number of objects, plus the indexes of changed entities.
    func migrated(with mapping: SchemaMapping, progress: ((Int, Int) -> Void)? = nil) throws -> StoreSnapshot {
        var result = StoreSnapshot(model: mapping.target)
        result.metadata = metadata
        var problems: [PersistenceError] = []
        // The objects that carry over (a removed entity's are dropped, not migrated).
        let total = mapping.entities.compactMap(\.source).reduce(0) { $0 + count(ofEntity: $1) }
        var migration = Migration(total: total, progress: progress)
        for entity in mapping.entities {
            guard let info = mapping.target.info(named: entity.name), let stored = entity.source,
                let source = model.info(named: stored)
            else { continue }
            let table = tables[source.index]
            if entity.becomesAbstract && table.count > 0 {
                problems.append(
                    .migrationProblem(
                        entity: entity.name, key: nil,
                        "becomes abstract, but \(table.count) stored object\(table.count == 1 ? " is" : "s are") of it; "
                            + "keep it concrete, or move its objects to a sub-entity with a custom migration stage"))
            }
            if entity.isIdentity {
                result.tables[info.index] = table.reindexed(for: info)
                migration.advance(by: table.count)
                continue
            }
            result.tables[info.index].nextKey = table.nextKey
            problems += migration.map(
                table, with: entity, attributeCount: info.attributeCount, into: &result.tables[info.index])
        }
        for entity in mapping.entities {
            guard let info = mapping.target.info(named: entity.name) else { continue }
            for (slot, step) in entity.steps.enumerated() where step.isDerivedFromInverse {
                result.deriveFromInverse(slot: slot, of: info)
            }
        }
        for entity in mapping.entities {
            guard let info = mapping.target.info(named: entity.name) else { continue }
            problems += result.emptyRequiredRelationships(of: info, entity: entity)
            for constraint in entity.newUniquenessConstraints {
                if let problem = result.duplicates(of: constraint, in: info) { problems.append(problem) }
            }
        }
        guard problems.isEmpty else { throw PersistenceError.migrationImpossible(problems) }
        migration.finish()
        return result
    }

    /// The mapping's changes, each with the number of stored objects it touches.
    func counted(_ mapping: SchemaMapping) -> [SchemaChange] {
        mapping.changes.map { change in
            var counted = change
            let stored = mapping.entities.first { $0.name == change.entityName }?.source ?? change.entityName
            counted.objectCount = change.summary == "added" ? 0 : count(ofEntity: stored)
            return counted
        }
    }

    /// Sets the relationship at `slot` of every object of `info` from the values of its inverse.
    private mutating func deriveFromInverse(slot: Int, of info: EntityInfo) {
        let relationship = info.relationship(at: slot)
        guard relationship.inverseSlot != nil else { return }
        let isToMany = relationship.description.isToMany
        let empty: StoreValue = isToMany ? .objects([]) : .null
        var table = tables[info.index]
        var keys: [Int64] = []
        table.forEach { key, _ in keys.append(key) }
        var derived: [Int64: [ObjectID]] = [:]
        // The destination's objects and its sub-entities' (whose inherited relationships sit
        // after their own attributes).
        for index in model.infos[relationship.destinationIndex].familyIndexes {
            let member = model.infos[index]
            guard let memberSlot = relationship.inverseSlot(in: member) else { continue }
            tables[index].forEach { key, row in
                let id = ObjectID(entityName: member.name, key: key)
                switch row.values[memberSlot] {
                case .object(let target) where target.entityName == info.name:
                    derived[target.key, default: []].append(id)
                case .objects(let targets):
                    for target in targets where target.entityName == info.name {
                        derived[target.key, default: []].append(id)
                    }
                default: break
                }
            }
        }
        for key in keys {
            guard var row = table[key] else { continue }
            let ids = derived[key] ?? []
            row.values[slot] = isToMany ? .objects(ids) : (ids.last.map(StoreValue.object) ?? empty)
            table.set(row, forKey: key)
        }
        tables[info.index] = table
    }

    /// Problems with relationships that are required now and were not before.
    private func emptyRequiredRelationships(of info: EntityInfo, entity: SchemaMapping.EntityMapping)
        -> [PersistenceError]
    {
        var problems: [PersistenceError] = []
        for (slot, step) in entity.steps.enumerated() where step.isRequired && !info.isAttribute(slot) {
            var empty = 0
            tables[info.index].forEach { _, row in
                switch row.values[slot] {
                case .null, .objects([]): empty += 1
                default: break
                }
            }
            if empty > 0 {
                problems.append(
                    .migrationProblem(
                        entity: info.name, key: step.name,
                        "is required now, but \(empty) stored object\(empty == 1 ? " has" : "s have") nothing in it"))
            }
        }
        return problems
    }

    /// The objects of `info` that break `constraint` (objects with a nil among its values never do).
    private func duplicates(of constraint: [String], in info: EntityInfo) -> PersistenceError? {
        let slots = constraint.compactMap { info.slotByName[$0] }
        var first: [[StoreValue]: Int64] = [:]
        var groups: [Int64: [Int64]] = [:]
        var order: [Int64] = []
        tables[info.index].forEach { key, row in
            let tuple = slots.map { row.values[$0] }
            guard !tuple.contains(.null) else { return }
            if let earlier = first[tuple] {
                if groups[earlier] == nil { order.append(earlier) }
                groups[earlier, default: [earlier]].append(key)
            } else {
                first[tuple] = key
            }
        }
        guard !order.isEmpty else { return nil }
        let listed = order.prefix(10).map { earlier in
            let keys = groups[earlier] ?? []
            let ids = keys.prefix(10).map { ObjectID(entityName: info.name, key: $0).description }
            return ids.joined(separator: ", ") + (keys.count > 10 ? " and \(keys.count - 10) more" : "")
        }
        let more = order.count > 10 ? "; and \(order.count - 10) more groups" : ""
        let count = order.reduce(0) { $0 + (groups[$1]?.count ?? 0) }
        return .migrationProblem(
            entity: info.name, key: constraint.first,
            "has a new uniqueness constraint on \(constraint.joined(separator: ", ")) that \(count) stored objects "
                + "break, in \(order.count) group\(order.count == 1 ? "" : "s") sharing values: "
                + "[\(listed.joined(separator: "]; ["))]\(more); remove or change the duplicates first")
    }
}

/// One migration's progress, and the mapping of one table's rows.
private struct Migration {
    let total: Int
    let progress: ((Int, Int) -> Void)?
    var done = 0
    static let reportInterval = 4096

    init(total: Int, progress: ((Int, Int) -> Void)?) {
        self.total = total
        self.progress = progress
    }

    mutating func advance(by objects: Int) {
        let before = done / Self.reportInterval
        done += objects
        if done / Self.reportInterval != before { progress?(done, total) }
    }

    mutating func finish() { progress?(done, total) }

    /// Maps every row of `table` into `target`; returns the problems found.
    mutating func map(
        _ table: EntityTable, with entity: SchemaMapping.EntityMapping, attributeCount: Int,
        into target: inout EntityTable
    ) -> [PersistenceError] {
        let steps = entity.steps
        var missing = [Int](repeating: 0, count: steps.count)
        var crowded = [Int](repeating: 0, count: steps.count)
        var mapped = 0
        table.forEach { key, row in
            var values: [StoreValue] = []
            values.reserveCapacity(steps.count)
            for slot in steps.indices {
                let step = steps[slot]
                guard let source = step.source else {
                    if slot < attributeCount && step.isRequired && step.fill.isNull { missing[slot] += 1 }
                    values.append(step.fill)
                    continue
                }
                var value = row.values[source]
                if step.conversion != .none || step.referenceRenames != nil {
                    value = Self.convert(value, step, crowded: &crowded[slot])
                }
                if slot < attributeCount && value.isNull && step.isRequired {
                    if step.fill.isNull { missing[slot] += 1 } else { value = step.fill }
                }
                values.append(value)
            }
            target.set(EntityTable.Row(version: row.version, values: values), forKey: key)
            mapped += 1
            if mapped == Self.reportInterval {
                advance(by: mapped)
                mapped = 0
            }
        }
        advance(by: mapped)
        var problems: [PersistenceError] = []
        for (slot, step) in steps.enumerated() {
            if missing[slot] > 0 {
                let objects = "\(missing[slot]) stored object\(missing[slot] == 1 ? "" : "s")"
                let what =
                    step.source == nil
                    ? "is a new required attribute without a default value, and \(objects) would have no value"
                    : "is required now and has no default value, but \(objects) have no value"
                problems.append(
                    .migrationProblem(
                        entity: entity.name, key: step.name,
                        "\(what); give it a default value, keep it optional, or fill it in a custom migration stage"))
            }
            if crowded[slot] > 0 {
                problems.append(
                    .migrationProblem(
                        entity: entity.name, key: step.name,
                        "changes from to-many to to-one, but \(crowded[slot]) stored object"
                            + "\(crowded[slot] == 1 ? " holds" : "s hold") more than one object in it"))
            }
        }
        return problems
    }

    private static func convert(_ value: StoreValue, _ step: SchemaMapping.Step, crowded: inout Int) -> StoreValue {
        var value = value
        if let renames = step.referenceRenames {
            func renamed(_ id: ObjectID) -> ObjectID {
                renames[id.entityName].map { ObjectID(entityName: $0, key: id.key) } ?? id
            }
            switch value {
            case .object(let id): value = .object(renamed(id))
            case .objects(let ids): value = .objects(ids.map(renamed))
            default: break
            }
        }
        switch (step.conversion, value) {
        case (.integerToDouble, .int(let number)): return .double(Double(number))
        case (.integerToDecimal, .int(let number)): return .decimal(Decimal(number))
        case (.floatToDouble, .float(let number)): return .double(Double(number))
        case (.toOneToToMany, .object(let id)): return .objects([id])
        case (.toOneToToMany, .null): return .objects([])
        case (.toManyToToOne, .objects(let ids)):
            if ids.count > 1 { crowded += 1 }
            return ids.first.map(StoreValue.object) ?? .null
        default: return value
        }
    }
}
