extension SQLPredicateTranslator {
    /// One comparison with a constant; `nil` for comparisons of two key paths, functions,
    /// aggregates other than `@count`, and key paths SQL cannot follow (``path(_:from:)``).
    mutating func comparison(_ comparison: PredicateExpression.Comparison, row: Row) -> Condition? {
        var (lhs, rhs, op) = (comparison.lhs, comparison.rhs, comparison.operator)
        var isMembership = false
        if case .constant(let value) = lhs {
            if case .constant = rhs { return nil }
            // `value IN collection` is membership, as `collection CONTAINS value`.
            if op == .in, comparison.modifier == .direct, case .keyPath = rhs {
                (lhs, rhs, op) = (rhs, .constant(value), .contains)
                isMembership = true
            } else {
                guard comparison.modifier == .direct, let relation = PredicateRelation(op) else { return nil }
                (lhs, rhs, op) = (rhs, lhs, Self.operator(relation.mirrored))
            }
        }
        guard case .constant(let constant) = rhs else { return nil }
        let options = comparison.options
        switch lhs {
        case .evaluatedObject:
            guard comparison.modifier == .direct else { return nil }
            return objectTest(key(of: row), entityName: row.entity.name, op, constant)
        case .variable(let name):
            guard comparison.modifier == .direct, let element = variables[name] else { return nil }
            return objectTest(key(of: element), entityName: element.entity.name, op, constant)
        case .keyPath(let base, let components):
            guard let start = root(base, row: row), let path = path(components, from: start) else { return nil }
            switch path {
            case .value(let value, let entity, let slot):
                // (`value IN text` is the engine's dynamic comparison, not translated.)
                guard comparison.modifier == .direct, !isMembership else { return nil }
                return test(value, entity: entity, slot: slot, op, constant, options: options)
            case .many(let elements, let element, let value):
                // `collection CONTAINS value` (no modifier) asks whether some element equals it.
                if comparison.modifier == .direct && op == .contains { op = .equalTo }
                let inner: Condition?
                if let (value, entity, slot) = value {
                    guard !entity.isAttribute(slot) || entity.attribute(at: slot).type != .codable else { return nil }
                    inner = test(value, entity: entity, slot: slot, op, constant, options: options)
                } else {
                    inner = objectTest(key(of: element), entityName: element.entity.name, op, constant)
                }
                guard let inner else { return nil }
                if comparison.modifier == .all {
                    guard inner.isExact else { return nil }
                    return .exact("(NOT EXISTS (SELECT 1 " + elements.rows + " AND NOT " + inner.sql + "))")
                }
                return Condition(
                    sql: "(EXISTS (SELECT 1 " + elements.rows + " AND " + inner.sql + "))", isExact: inner.isExact)
            }
        case .collection(let base, .count, let rest) where rest.isEmpty && comparison.modifier == .direct:
            guard let count = count(of: base, row: row) else { return nil }
            return numberTest(count, isReal: false, op, constant, date: false)
        default:
            return nil
        }
    }

    /// `collection.@count` or `SUBQUERY(…).@count`, as an integer expression.
    private mutating func count(of operand: PredicateExpression.Operand, row: Row) -> SQLFragment? {
        switch operand {
        case .keyPath(let base, let components):
            guard let start = root(base, row: row), case .many(let elements, _, nil)? = path(components, from: start)
            else { return nil }
            return "(SELECT COUNT(*) " + elements.rows + ")"
        case .subquery(.keyPath(let base, let components), let variable, let predicate):
            guard let start = root(base, row: row),
                case .many(let elements, let element, nil)? = path(components, from: start)
            else { return nil }
            let outer = variables[variable]
            variables[variable] = element
            defer { variables[variable] = outer }
            // A superset of the elements would count too many.
            guard let condition = condition(predicate, row: row), condition.isExact else { return nil }
            return "(SELECT COUNT(*) " + elements.rows + " AND " + condition.sql + ")"
        default:
            return nil
        }
    }

    /// `SELF`, a `SUBQUERY` element or a to-one relationship (whose key is `key`, of an object
    /// of `entityName`) compared with an object or `nil`.
    func objectTest(
        _ key: SQLFragment, entityName: String, _ op: PredicateExpression.Operator, _ constant: PredicateValue
    ) -> Condition? {
        switch (op, constant) {
        case (.equalTo, .null): return .exact("(" + key + " IS NULL)")
        case (.notEqualTo, .null): return .exact("(" + key + " IS NOT NULL)")
        case (.equalTo, .object(let id)):
            guard id.entityName == entityName else { return .alwaysFalse }
            return .exact("(" + key + " IS NOT NULL AND " + key + " = " + SQLFragment.value(.integer(id.key)) + ")")
        case (.notEqualTo, .object(let id)):
            guard id.entityName == entityName else { return .alwaysTrue }
            return .exact("(" + key + " IS NULL OR " + key + " <> " + SQLFragment.value(.integer(id.key)) + ")")
        case (.in, .array(let elements)) where elements.count <= Self.parameterLimit:
            // Objects of another entity never match; nor does a key of no object (`IN` has no nil
            // element here, as a key is never NULL for `SELF`, and NULL IN (…) is handled apart).
            var keys: [SQLFragment] = []
            for element in elements {
                switch element {
                case .object(let id) where id.entityName == entityName: keys.append(SQLFragment.value(.integer(id.key)))
                case .object, .null: continue
                default: return nil
                }
            }
            var parts: [SQLFragment] = []
            if !keys.isEmpty {
                parts.append(
                    "(" + key + " IS NOT NULL AND " + key + " IN (" + SQLFragment.joined(keys, separator: ", ") + "))")
            }
            if elements.contains(.null) { parts.append("(" + key + " IS NULL)") }
            guard !parts.isEmpty else { return .alwaysFalse }
            return .exact("(" + SQLFragment.joined(parts, separator: " OR ") + ")")
        default:
            if PredicateRelation(op) != nil, constant == .null { return .alwaysFalse }
            return nil
        }
    }

    /// The operator of `relation`.
    static func `operator`(_ relation: PredicateRelation) -> PredicateExpression.Operator {
        switch relation {
        case .equal: .equalTo
        case .notEqual: .notEqualTo
        case .less: .lessThan
        case .lessOrEqual: .lessThanOrEqualTo
        case .greater: .greaterThan
        case .greaterOrEqual: .greaterThanOrEqualTo
        }
    }
}
