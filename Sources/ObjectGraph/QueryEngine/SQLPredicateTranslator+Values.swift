extension SQLPredicateTranslator {
    /// The value `value` (slot `slot` of `entity`) compared with a constant: native SQL where it
    /// provably agrees with the engine (``SQLColumnCoding``), else the engine's own test through
    /// the installed `og_test` function, else `nil`.
    func test(
        _ value: SQLFragment, entity: EntityInfo, slot: Int, _ op: PredicateExpression.Operator,
        _ constant: PredicateValue, options: PredicateExpression.Options
    ) -> Condition? {
        guard entity.isAttribute(slot) else {
            let destination = model.infos[entity.relationship(at: slot).destinationIndex]
            return objectTest(value, entityName: destination.name, op, constant)
        }
        let attribute = entity.attribute(at: slot)
        if constant == .null, PredicateRelation(op) != nil {
            return objectTest(value, entityName: entity.name, op, .null)
        }
        let native = nativeTest(value, attribute.type, op, constant, options: options.folding)
        if let native, native.isExact { return native }
        guard dialect.supportsCustomFunctions,
            let spec = SQLEngineMatcher.spec(entity, attribute.name, op, constant, options)
        else { return native }
        let engine =
            SQLFragment("\(SQLEngineMatcher.functionName)(") + SQLFragment.value(.text(spec)) + ", " + value + ")"
        // The native part first: it may use an index and narrows the rows the engine tests.
        return .exact(native.map { "(" + $0.sql + " AND " + engine + ")" } ?? engine)
    }

    private func nativeTest(
        _ value: SQLFragment, _ type: AttributeType, _ op: PredicateExpression.Operator, _ constant: PredicateValue,
        options: PredicateExpression.Options
    ) -> Condition? {
        switch type {
        case .boolean, .integer16, .integer32, .integer64:
            return numberTest(value, isReal: false, op, constant, date: false)
        case .float, .double, .date:
            // A NaN is a blob in SQLite's untyped column; other databases store it apart.
            guard dialect == .sqlite else { return nil }
            return numberTest(value, isReal: true, op, constant, date: type == .date)
        case .string where options.isEmpty:
            return stringTest(value, op, constant)
        case .uuid, .binary:
            return equalityTest(value, op, constant) { value in
                switch value {
                case .uuid, .data: SQLColumnCoding.encode(value.storeValue ?? .null)
                default: nil
                }
            }
        default:
            return nil
        }
    }

    /// A number (or date) column: SQL compares integers and reals exactly, as the engine does.
    func numberTest(
        _ value: SQLFragment, isReal: Bool, _ op: PredicateExpression.Operator, _ constant: PredicateValue,
        date: Bool
    ) -> Condition? {
        func bound(_ constant: PredicateValue) -> SQLValue? {
            switch constant {
            case .date(let when) where date && !when.timeIntervalSinceReferenceDate.isNaN:
                return .real(when.timeIntervalSinceReferenceDate)
            case .int(let number) where !date: return .integer(number)
            case .bool(let flag) where !date: return .integer(flag ? 1 : 0)
            case .double(let number) where !date && !number.isNaN: return .real(number)
            default: return nil
            }
        }
        // SQLite compares an integer with a real exactly; other databases get integer operands.
        guard let constant = isReal || dialect == .sqlite ? constant : Self.integerOperand(constant, op) else {
            return nil
        }
        // Every number orders below every blob (the NaN encoding): `< x''` keeps NaN out.
        let notNaN: SQLFragment = isReal ? " AND " + value + " < x''" : SQLFragment("")
        if let relation = PredicateRelation(op) {
            guard let bound = bound(constant) else { return nil }
            return relationTest(value, relation, bound, suffix: notNaN)
        }
        switch op {
        case .between:
            guard let bounds = constant.elements, bounds.count == 2 else { return nil }
            if bounds.contains(.null) { return .alwaysFalse }
            guard let low = bound(bounds[0]), let high = bound(bounds[1]) else { return nil }
            return .exact(
                "(" + value + " IS NOT NULL AND " + value + " >= " + SQLFragment.value(low) + " AND " + value + " <= "
                    + SQLFragment.value(high) + notNaN + ")")
        case .in:
            return memberTest(value, constant, bound)
        default:
            return nil
        }
    }

    /// Case-sensitive strings: byte equality is the engine's (canonical) equality when the
    /// constant is ASCII without `K`, `;` or `` ` `` (the only ASCII characters that another
    /// character, U+212A, U+037E or U+1FEF, is canonically equivalent to).
    private func stringTest(
        _ value: SQLFragment, _ op: PredicateExpression.Operator, _ constant: PredicateValue
    ) -> Condition? {
        func plain(_ constant: PredicateValue) -> SQLValue? {
            guard case .string(let text) = constant,
                text.utf8.allSatisfy({ $0 < 0x80 && $0 != 0x4B && $0 != 0x3B && $0 != 0x60 }),
                // A database whose text cannot hold a NUL stores U+0000 and U+0001 escaped.
                dialect.textHoldsNUL || text.utf8.allSatisfy({ $0 > 0x01 })
            else { return nil }
            return .text(text)
        }
        switch op {
        case .equalTo, .notEqualTo, .in:
            return equalityTest(value, op, constant, plain)
        case .beginsWith:
            // Every string the engine finds with the prefix starts with its bytes: a range (which
            // an index serves) holding a superset.
            guard case .text(let prefix)? = plain(constant), let last = prefix.utf8.last, last < 0x7E else {
                return nil
            }
            let upper = String(decoding: prefix.utf8.dropLast() + [last + 1], as: UTF8.self)
            // Byte order: SQLite's own; PostgreSQL's only in the "C" collation.
            let bytewise = dialect == .sqlite ? value : "(" + value + " COLLATE \"C\")"
            return Condition(
                sql: "(" + bytewise + " >= " + SQLFragment.value(.text(prefix)) + " AND " + bytewise + " < "
                    + SQLFragment.value(.text(upper)) + ")",
                isExact: false)
        default:
            return nil
        }
    }

    /// `==`, `!=` and `IN` of values compared for equality only.
    private func equalityTest(
        _ value: SQLFragment, _ op: PredicateExpression.Operator, _ constant: PredicateValue,
        _ bound: (PredicateValue) -> SQLValue?
    ) -> Condition? {
        switch op {
        case .equalTo, .notEqualTo:
            guard let bound = bound(constant) else { return nil }
            return relationTest(value, op == .equalTo ? .equal : .notEqual, bound, suffix: SQLFragment(""))
        case .in: return memberTest(value, constant, bound)
        default: return nil
        }
    }

    private func relationTest(
        _ value: SQLFragment, _ relation: PredicateRelation, _ bound: SQLValue, suffix: SQLFragment
    ) -> Condition {
        let symbol: String
        switch relation {
        case .equal: symbol = "="
        case .notEqual: return .exact("(" + value + " IS NULL OR " + value + " <> " + SQLFragment.value(bound) + ")")
        case .less: symbol = "<"
        case .lessOrEqual: symbol = "<="
        case .greater: symbol = ">"
        case .greaterOrEqual: symbol = ">="
        }
        return .exact(
            "(" + value + " IS NOT NULL AND " + value + " \(symbol) " + SQLFragment.value(bound) + suffix + ")")
    }

    /// The most parameters one `IN` list binds natively (SQLite allowed 999 per statement before
    /// 3.32); a longer list goes to the engine's test, which binds one.
    static let parameterLimit = 500

    /// `IN`: the non-null members as a SQL list, and `IS NULL` if `nil` is one.
    private func memberTest(
        _ value: SQLFragment, _ constant: PredicateValue, _ bound: (PredicateValue) -> SQLValue?
    ) -> Condition? {
        guard let elements = constant.elements, elements.count <= Self.parameterLimit else { return nil }
        var members: [SQLFragment] = []
        for element in elements where element != .null {
            guard let member = bound(element) else { return nil }
            members.append(SQLFragment.value(member))
        }
        var parts: [SQLFragment] = []
        if !members.isEmpty {
            parts.append(
                "(" + value + " IS NOT NULL AND " + value + " IN (" + SQLFragment.joined(members, separator: ", ")
                    + "))")
        }
        if elements.contains(.null) { parts.append("(" + value + " IS NULL)") }
        guard !parts.isEmpty else { return .alwaysFalse }
        return .exact("(" + SQLFragment.joined(parts, separator: " OR ") + ")")
    }
}
