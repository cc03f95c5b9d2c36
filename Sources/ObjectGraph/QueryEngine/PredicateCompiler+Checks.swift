extension PredicateCompiler {
    /// The fast test for `lhs op constant`, after checking that the types fit; `nil` when the
    /// comparison must be evaluated dynamically (`x IN "string"`).
    func valueTest(
        _ op: PredicateExpression.Operator, _ constant: PredicateValue, options: PredicateExpression.Options,
        lhs: Operand
    ) throws -> ValueMatcher? {
        let kind = lhs.type.kind
        if let relation = PredicateRelation(op) {
            guard let value = constant.storeValue else {
                throw mismatch("compares '\(lhs.text)' with a collection using \(op.spelling); use IN", key: lhs.text)
            }
            if value.isNull {
                switch relation {
                case .equal: return .isNull(true)
                case .notEqual: return .isNull(false)
                default: return .constant(false)
                }
            }
            try checkComparable(lhs, with: constant, ordering: relation != .equal && relation != .notEqual, op: op)
            return .relation(relation, PreparedConstant(value, options: options))
        }
        switch op {
        case .between:
            guard let bounds = constant.elements, bounds.count == 2 else {
                throw mismatch(
                    "uses BETWEEN on '\(lhs.text)' without two bounds; write BETWEEN {low, high}", key: lhs.text)
            }
            for bound in bounds { try checkComparable(lhs, with: bound, ordering: true, op: op) }
            guard let low = bounds[0].storeValue, let high = bounds[1].storeValue, !low.isNull, !high.isNull else {
                return .constant(false)
            }
            return .between(PreparedConstant(low, options: options), PreparedConstant(high, options: options))
        case .in:
            if case .string = constant { return nil }
            guard let elements = constant.elements else {
                throw mismatch(
                    "uses IN with \(PredicateOperandType.constant(constant).summary); pass an array or set",
                    key: lhs.text)
            }
            for element in elements { try checkComparable(lhs, with: element, ordering: false, op: op) }
            let members = MemberSet(elements.compactMap(\.storeValue), options: options)
            return members.isEmpty ? .constant(false) : .member(members)
        case .contains, .beginsWith, .endsWith, .like, .matches:
            guard kind == .string || kind == .any || kind == .null else {
                throw mismatch(
                    "applies \(op.spelling) to '\(lhs.text)', which is \(lhs.type.summary), not a string", key: lhs.text
                )
            }
            guard case .string(let text) = constant else {
                if constant == .null { return .constant(false) }
                throw mismatch(
                    "applies \(op.spelling) to '\(lhs.text)' with \(PredicateOperandType.constant(constant).summary), "
                        + "not a string", key: lhs.text)
            }
            switch op {
            case .contains: return .string(.substring, PreparedString(text, options: options))
            case .beginsWith: return .string(.prefix, PreparedString(text, options: options))
            case .endsWith: return .string(.suffix, PreparedString(text, options: options))
            case .like: return .like(LikePattern(text, options: options))
            default:
                do {
                    return .regex(try PredicateRegex(text, options: options))
                } catch let refused as UnsafePredicatePattern {
                    throw PersistenceError.invalidPredicateKeyPath(
                        "is matched with a pattern that \(refused.reason)", key: lhs.text, entity: entity.name)
                } catch {
                    throw PersistenceError.invalidPredicateKeyPath(
                        "is matched with a pattern that is not a valid regular expression", key: lhs.text,
                        entity: entity.name)
                }
            }
        default:
            return nil
        }
    }

    /// Checks that `lhs` can be compared with `constant` (and ordered, when `ordering`).
    private func checkComparable(
        _ lhs: Operand, with constant: PredicateValue, ordering: Bool, op: PredicateExpression.Operator
    )
        throws
    {
        let kind = PredicateOperandType.Kind(constant)
        if constant.elements != nil {
            throw mismatch("compares '\(lhs.text)' with a collection inside \(op.spelling)", key: lhs.text)
        }
        guard lhs.type.kind.compares(with: kind) else {
            throw mismatch(
                "compares '\(lhs.text)' (\(lhs.type.summary)) with \(PredicateOperandType.constant(constant).summary) "
                    + "using \(op.spelling)", key: lhs.text)
        }
        if ordering, !lhs.type.kind.isOrderable || !kind.isOrderable {
            throw mismatch(
                "orders '\(lhs.text)' (\(lhs.type.summary)) using \(op.spelling), but its values have no order; "
                    + "use == or !=", key: lhs.text)
        }
    }

    /// Checks a comparison of two computed operands.
    func checkDynamic(_ op: PredicateExpression.Operator, _ lhs: Operand, _ rhs: Operand) throws {
        let left = lhs.type.kind
        let right = rhs.type.kind
        switch op {
        case .in:
            guard rhs.type.isCollection || right == .string || right == .any else {
                throw mismatch(
                    "uses IN with '\(rhs.text)', which is \(rhs.type.summary), not a collection", key: rhs.text)
            }
        case .between:
            guard case .list(let bounds) = rhs.getter, bounds.count == 2 else {
                throw mismatch("uses BETWEEN with '\(rhs.text)'; write BETWEEN {low, high}", key: rhs.text)
            }
        case .contains, .beginsWith, .endsWith, .like, .matches:
            for (operand, kind) in [(lhs, left), (rhs, right)] where !(kind == .string || kind == .any || kind == .null)
            {
                throw mismatch(
                    "applies \(op.spelling) to '\(operand.text)', which is \(operand.type.summary), not a string",
                    key: operand.text)
            }
            guard !rhs.type.isCollection else {
                throw mismatch("applies \(op.spelling) to the collection '\(rhs.text)'", key: rhs.text)
            }
            return
        default:
            guard !rhs.type.isCollection else {
                throw mismatch(
                    "compares '\(lhs.text)' with the collection '\(rhs.text)' using \(op.spelling); use IN or ANY",
                    key: rhs.text)
            }
        }
        guard left.compares(with: right) else {
            throw mismatch(
                "compares '\(lhs.text)' (\(lhs.type.summary)) with '\(rhs.text)' (\(rhs.type.summary))", key: lhs.text)
        }
        if op.isOrdering, !left.isOrderable || !right.isOrderable {
            throw mismatch(
                "orders '\(lhs.text)' (\(lhs.type.summary)) using \(op.spelling), but its values have no order",
                key: lhs.text)
        }
    }
}
