extension SQLPredicateTranslator {
    /// A key path resolved to SQL.
    enum Path {
        /// One value: an attribute or a to-one relationship's key (`slot` of `entity`), as SQL.
        case value(SQLFragment, entity: EntityInfo, slot: Int)
        /// The elements of a to-many relationship: the SQL `FROM … WHERE` clause that selects
        /// them (under the alias of `element`), and, if the path goes on past the relationship,
        /// the element's value it reaches (else the element itself is meant).
        case many(Elements, element: Row, value: (SQLFragment, entity: EntityInfo, slot: Int)?)
    }

    /// The members of one object's to-many relationship, as its layout stores them.
    struct Elements {
        /// `FROM … WHERE …` selecting the destination rows. A member whose object no longer
        /// exists has none, as the engine leaves such members out (of `@count` too).
        var rows: SQLFragment
    }

    /// `components` followed from `row`; `nil` for paths SQL cannot follow exactly: unknown
    /// keys, paths past an attribute, more than one to-many step, and relationships whose
    /// destination has sub-entities (whose objects live in other tables).
    mutating func path(_ components: [String], from row: Row) -> Path? {
        var row = row
        for (offset, name) in components.enumerated() {
            let entity = row.entity
            let isLast = offset == components.count - 1
            guard let slot = entity.slotByName[name] else { return nil }
            if entity.isAttribute(slot) {
                guard isLast else { return nil }
                return .value(column(name, of: row), entity: entity, slot: slot)
            }
            let relationship = entity.relationship(at: slot)
            let destination = model.infos[relationship.destinationIndex]
            guard relationship.destinationSubentityNames.isEmpty, !destination.hasSubentities else { return nil }
            guard relationship.description.isToMany else {
                if isLast { return .value(column(name, of: row), entity: entity, slot: slot) }
                row = .key(column(name, of: row), destination)
                continue
            }
            guard let elements = elements(of: slot, owner: row, destination: destination) else { return nil }
            let element = Row.alias(elements.alias, destination)
            if isLast { return .many(elements.clause, element: element, value: nil) }
            // Past a to-many step the engine drops elements whose to-one hop is empty or missing
            // (where a scalar subquery would give NULL): only one more key translates.
            guard offset + 2 == components.count,
                case .value(let value, let valueEntity, let valueSlot)? = path(
                    Array(components[(offset + 1)...]), from: element)
            else { return nil }
            return .many(elements.clause, element: element, value: (value, valueEntity, valueSlot))
        }
        return nil
    }

    /// The clauses selecting the members of `owner`'s to-many relationship at `slot`.
    private mutating func elements(of slot: Int, owner: Row, destination: EntityInfo)
        -> (clause: Elements, alias: String)?
    {
        guard let table = table(of: owner.entity) else { return nil }
        let alias = newAlias()
        let ownerKey = key(of: owner)
        let keyColumn = quote(SQLStoreSchema.keyColumn)
        if let derived = table.derived.first(where: { $0.slot == slot }) {
            let rows =
                "FROM \(quote(derived.destinationTable)) AS \(alias) WHERE \(alias).\(quote(derived.inverseColumn)) = "
                + ownerKey
            return (Elements(rows: rows), alias)
        }
        guard let join = table.joins.first(where: { $0.slot == slot }) else { return nil }
        let link = newAlias()
        let rows =
            "FROM \(quote(join.name)) AS \(link) JOIN \(quote(destination.name)) AS \(alias) ON "
            + "\(alias).\(keyColumn) = \(link).member WHERE \(link).owner = " + ownerKey
        return (Elements(rows: rows), alias)
    }

    /// The object an operand's key path starts from: `SELF` or a `SUBQUERY` variable.
    func root(_ operand: PredicateExpression.Operand, row: Row) -> Row? {
        switch operand {
        case .evaluatedObject: row
        case .variable(let name): variables[name]
        default: nil
        }
    }
}
