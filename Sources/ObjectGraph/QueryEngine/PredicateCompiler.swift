/// Compiles an expression tree against an entity: resolves key paths to slots, checks types and
/// prepares constants.
struct PredicateCompiler {
    let model: ManagedObjectModel
    let entity: EntityInfo
    /// The variables of the enclosing `SUBQUERY`s, innermost last, with their element entities.
    var variables: [(name: String, entity: EntityInfo)] = []
    /// Set when an operand is `SELF`: evaluation then needs the object's ID.
    var usesEvaluatedObject = false

    init(model: ManagedObjectModel, entity: EntityInfo) {
        self.model = model
        self.entity = entity
    }

    /// An operand compiled: how to get it, its type, its value if it is constant, and its text.
    struct Operand {
        let getter: PredicateGetter
        let type: PredicateOperandType
        let constant: PredicateValue?
        let text: String
    }

    // MARK: - Predicates

    mutating func node(_ expression: PredicateExpression) throws -> PredicateNode {
        switch expression {
        case .constant(let value): return .constant(value)
        case .not(let inner):
            let compiled = try node(inner)
            if let value = compiled.constantValue { return .constant(!value) }
            return .not(compiled)
        case .and(let operands):
            var nodes: [PredicateNode] = []
            for part in operands {
                let compiled = try node(part)
                if let value = compiled.constantValue {
                    if !value { return .constant(false) }
                    continue
                }
                nodes.append(compiled)
            }
            return nodes.isEmpty ? .constant(true) : (nodes.count == 1 ? nodes[0] : .and(nodes))
        case .or(let operands):
            var nodes: [PredicateNode] = []
            for part in operands {
                let compiled = try node(part)
                if let value = compiled.constantValue {
                    if value { return .constant(true) }
                    continue
                }
                nodes.append(compiled)
            }
            return nodes.isEmpty ? .constant(false) : (nodes.count == 1 ? nodes[0] : .or(nodes))
        case .comparison(let comparison):
            return try self.comparison(comparison)
        }
    }

    mutating func comparison(_ comparison: PredicateExpression.Comparison) throws -> PredicateNode {
        var lhs = try operand(comparison.lhs)
        var rhs = try operand(comparison.rhs)
        let op = comparison.operator
        if comparison.modifier != .direct || op == .contains, let elements = codableElements(lhs) { lhs = elements }
        if op == .in, let elements = codableElements(rhs) { rhs = elements }
        // `[n]` and `[l]` do not change results here (see ``PredicateExpression/Options``).
        let options = comparison.options.folding
        // Membership: `collection CONTAINS element` and `element IN collection`.
        if op == .contains, comparison.modifier == .direct, lhs.type.isCollection {
            return try membership(of: rhs, in: lhs, options: options)
        }
        if op == .in, rhs.constant == nil, rhs.type.isCollection {
            guard !lhs.type.isCollection else {
                throw PersistenceError.unsupportedPredicate(
                    "IN between two collections ('\(lhs.text)' IN '\(rhs.text)')", format: nil, position: nil,
                    advice: "Use a SUBQUERY over one of the collections.")
            }
            return try membership(of: lhs, in: rhs, options: options)
        }
        var quantifier: DynamicComparison.Quantifier?
        if lhs.type.isCollection {
            quantifier = comparison.modifier == .all ? .all : .any
        } else if comparison.modifier != .direct {
            throw mismatch(
                "applies \(comparison.modifier == .all ? "ALL" : "ANY") to '\(lhs.text)', which is \(lhs.type.summary), "
                    + "not a to-many key path", key: lhs.text)
        }
        if let constant = rhs.constant, lhs.constant == nil,
            let test = try valueTest(op, constant, options: options, lhs: lhs)
        {
            guard let quantifier else { return .test(lhs.getter, test) }
            return .quantified(all: quantifier == .all, lhs.getter, test)
        }
        if let constant = lhs.constant, rhs.constant == nil, comparison.modifier == .direct,
            let relation = PredicateRelation(op), !rhs.type.isCollection,
            let test = try valueTest(.init(relation.mirrored), constant, options: options, lhs: rhs)
        {
            return .test(rhs.getter, test)
        }
        try checkDynamic(op, lhs, rhs)
        let dynamic = DynamicComparison(
            lhs: lhs.getter, quantifier: quantifier, op: op, rhs: rhs.getter, options: options, isMembership: false)
        if lhs.constant != nil, rhs.constant != nil {
            let scope = PredicateScope(values: [], objectID: nil, variables: [])
            return .constant(dynamic.evaluate(in: scope, resolver: PredicateResolver { _ in nil }))
        }
        return .compare(dynamic)
    }

    /// `element IN collection`: a constant element becomes a test on each element.
    private func membership(of element: Operand, in collection: Operand, options: PredicateExpression.Options)
        throws -> PredicateNode
    {
        if let constant = collection.constant, !element.type.isCollection,
            let test = try valueTest(.in, constant, options: options, lhs: element)
        {
            return .test(element.getter, test)
        }
        guard element.type.kind.compares(with: collection.type.kind) else {
            throw mismatch(
                "looks for \(element.type.summary) ('\(element.text)') in '\(collection.text)', which holds "
                    + collection.type.summary, key: collection.text)
        }
        if let constant = element.constant {
            guard let value = constant.storeValue else {
                throw mismatch(
                    "looks for a collection in '\(collection.text)'; look for one value", key: collection.text)
            }
            let test: ValueMatcher =
                value.isNull ? .isNull(true) : .relation(.equal, PreparedConstant(value, options: options))
            return .quantified(all: false, collection.getter, test)
        }
        return .compare(
            DynamicComparison(
                lhs: element.getter, quantifier: nil, op: .in, rhs: collection.getter, options: options,
                isMembership: true))
    }

    func mismatch(_ problem: String, key: String?) -> PersistenceError {
        PersistenceError.predicateTypeMismatch(problem, key: key, entity: entity.name)
    }
}
