/// A predicate checked against one entity and compiled for evaluation on value arrays.
///
/// Compiling resolves every key path to slots, checks every comparison's types, and prepares
/// constants (folded strings, `IN` sets, `LIKE` patterns, regular expressions) once, so that
/// matching a row does no lookups by name and, for comparisons of attributes with constants,
/// no allocation. A fetch compiles its predicate once.
struct CompiledPredicate {
    let entity: EntityInfo
    let root: PredicateNode
    /// Whether the predicate compares `SELF`, so that callers must pass the object's ID.
    let needsObjectID: Bool
    /// Whether the predicate reads only the object's own attributes: ``matchesRow(_:)``
    /// evaluates it.
    let isRowLocal: Bool

    /// Whether a row-local predicate holds for an object with `values` (read in place).
    func matchesRow(_ values: UnsafeBufferPointer<StoreValue>) -> Bool { root.matchesRow(values) }

    /// Checks `expression` against `entity` and compiles it.
    ///
    /// - Throws: `PersistenceError.Code.unknownKey` for a key path that names no property;
    ///   `.typeMismatch` for comparisons of values that do not compare (a string attribute with
    ///   a number, `BEGINSWITH` on an integer, …); `.invalidPredicate` for key paths that cannot
    ///   be evaluated (past an attribute), unbound variables and invalid patterns. Errors name
    ///   the entity and the key path.
    init(_ expression: PredicateExpression, entity: EntityInfo, model: ManagedObjectModel) throws {
        var compiler = PredicateCompiler(model: model, entity: entity)
        self.entity = entity
        self.root = try compiler.node(expression)
        self.needsObjectID = compiler.usesEvaluatedObject
        self.isRowLocal = root.isRowLocal
    }

    /// Whether an object with `values` (by slot) matches.
    ///
    /// - Parameters:
    ///   - objectID: The object's ID, for `SELF` comparisons; `nil` makes `SELF` nil.
    ///   - resolve: The current values of a related object; `nil` if it does not exist.
    func matches(
        _ values: [StoreValue], objectID: ObjectID? = nil, resolve: (ObjectID) -> [StoreValue]?
    ) -> Bool {
        withoutActuallyEscaping(resolve) { resolve in
            matches(values, objectID: objectID, resolver: PredicateResolver(resolve: resolve))
        }
    }

    /// Whether an object with `values` matches, resolving related objects with `resolver`.
    func matches(_ values: [StoreValue], objectID: ObjectID?, resolver: PredicateResolver) -> Bool {
        root.evaluate(in: PredicateScope(values: values, objectID: objectID, variables: []), resolver: resolver)
    }
}

/// How evaluation reaches related objects: their current values by ID, `nil` if missing.
///
/// A struct around an opaque closure, passed down by value, so that evaluating a row neither
/// retains the closure's captures nor specializes the evaluator for one caller.
struct PredicateResolver {
    let resolve: (ObjectID) -> [StoreValue]?
}

/// What a predicate evaluates against: the object, and the elements bound by enclosing
/// `SUBQUERY`s (innermost last).
struct PredicateScope {
    let values: [StoreValue]
    let objectID: ObjectID?
    var variables: [ObjectID]
}

/// A compiled predicate: an immutable tree of final classes, so that evaluation borrows its
/// constants instead of copying them.
class PredicateNode {
    func evaluate(in scope: PredicateScope, resolver: PredicateResolver) -> Bool {
        preconditionFailure("PredicateNode is abstract")
    }

    /// The result, when it does not depend on the object.
    var constantValue: Bool? { nil }

    /// Whether the node reads only the object's own attributes (tests of slots with constants,
    /// combined with AND, OR and NOT), so that ``matchesRow(_:)`` can evaluate it.
    var isRowLocal: Bool { false }

    /// The result for an object with `values`, for a row-local node: evaluated on the borrowed
    /// values, without a scope or resolver.
    func matchesRow(_ values: UnsafeBufferPointer<StoreValue>) -> Bool { preconditionFailure("not a row-local node") }

    /// The tests of the object's own attributes that must all hold for a match (the node's
    /// conjuncts of that form), for index lookups.
    var slotConjuncts: [(slot: Int, test: ValueMatcher)] {
        var conjuncts: [PredicateNode] = []
        appendConjuncts(to: &conjuncts)
        return conjuncts.compactMap(\.slotTest)
    }

    /// Appends the node's conjuncts (the node itself, unless it is an `AND`), in evaluation order.
    func appendConjuncts(to conjuncts: inout [PredicateNode]) { conjuncts.append(self) }

    /// Appends the node's disjuncts (the node itself, unless it is an `OR`), in evaluation order.
    func appendDisjuncts(to disjuncts: inout [PredicateNode]) { disjuncts.append(self) }

    /// The slot and test, for a test of one of the object's own attributes.
    var slotTest: (slot: Int, test: ValueMatcher)? { nil }

    /// The slot and test, for the negation of a test of one of the object's own attributes.
    var negatedSlotTest: (slot: Int, test: ValueMatcher)? { nil }

    static func constant(_ result: Bool) -> PredicateNode { ConstantNode(result) }
    static func not(_ node: PredicateNode) -> PredicateNode { NotNode(node) }
    /// Every node (at least one), as a balanced tree of pairs evaluated left to right: a final
    /// class's `let` children are borrowed when evaluated, where array elements would be
    /// retained, and balancing keeps long chains shallow.
    static func and(_ nodes: some Collection<PredicateNode>) -> PredicateNode {
        guard nodes.count > 1 else { return nodes.first! }
        let middle = nodes.index(nodes.startIndex, offsetBy: nodes.count / 2)
        return AndNode(and(nodes[..<middle]), and(nodes[middle...]))
    }

    /// Any node (at least one), as a balanced tree of pairs evaluated left to right.
    static func or(_ nodes: some Collection<PredicateNode>) -> PredicateNode {
        guard nodes.count > 1 else { return nodes.first! }
        let middle = nodes.index(nodes.startIndex, offsetBy: nodes.count / 2)
        return OrNode(or(nodes[..<middle]), or(nodes[middle...]))
    }

    /// A scalar compared with constants (the fast path).
    static func test(_ getter: PredicateGetter, _ test: ValueMatcher) -> PredicateNode {
        if case .slot(let slot) = getter { return SlotTestNode(slot, test) }
        return TestNode(getter, test)
    }

    /// Some (or every) element of a collection compared with constants.
    static func quantified(all: Bool, _ getter: PredicateGetter, _ test: ValueMatcher) -> PredicateNode {
        QuantifiedNode(all: all, getter, test)
    }

    /// Two computed operands compared per object.
    static func compare(_ comparison: DynamicComparison) -> PredicateNode { DynamicNode(comparison) }
}

private final class ConstantNode: PredicateNode {
    let result: Bool
    init(_ result: Bool) { self.result = result }
    override var constantValue: Bool? { result }
    override func evaluate(in scope: PredicateScope, resolver: PredicateResolver) -> Bool { result }
    override var isRowLocal: Bool { true }
    override func matchesRow(_ values: UnsafeBufferPointer<StoreValue>) -> Bool { result }
}

private final class NotNode: PredicateNode {
    let node: PredicateNode
    init(_ node: PredicateNode) { self.node = node }
    override func evaluate(in scope: PredicateScope, resolver: PredicateResolver) -> Bool {
        !node.evaluate(in: scope, resolver: resolver)
    }
    override var isRowLocal: Bool { node.isRowLocal }
    override func matchesRow(_ values: UnsafeBufferPointer<StoreValue>) -> Bool { !node.matchesRow(values) }
    override var negatedSlotTest: (slot: Int, test: ValueMatcher)? { node.slotTest }
}

private final class AndNode: PredicateNode {
    let first: PredicateNode
    let second: PredicateNode
    init(_ first: PredicateNode, _ second: PredicateNode) {
        self.first = first
        self.second = second
    }
    override func evaluate(in scope: PredicateScope, resolver: PredicateResolver) -> Bool {
        first.evaluate(in: scope, resolver: resolver) && second.evaluate(in: scope, resolver: resolver)
    }
    override var isRowLocal: Bool { first.isRowLocal && second.isRowLocal }
    override func matchesRow(_ values: UnsafeBufferPointer<StoreValue>) -> Bool {
        first.matchesRow(values) && second.matchesRow(values)
    }
    override func appendConjuncts(to conjuncts: inout [PredicateNode]) {
        first.appendConjuncts(to: &conjuncts)
        second.appendConjuncts(to: &conjuncts)
    }
}

private final class OrNode: PredicateNode {
    let first: PredicateNode
    let second: PredicateNode
    init(_ first: PredicateNode, _ second: PredicateNode) {
        self.first = first
        self.second = second
    }
    override func evaluate(in scope: PredicateScope, resolver: PredicateResolver) -> Bool {
        first.evaluate(in: scope, resolver: resolver) || second.evaluate(in: scope, resolver: resolver)
    }
    override var isRowLocal: Bool { first.isRowLocal && second.isRowLocal }
    override func matchesRow(_ values: UnsafeBufferPointer<StoreValue>) -> Bool {
        first.matchesRow(values) || second.matchesRow(values)
    }
    override func appendDisjuncts(to disjuncts: inout [PredicateNode]) {
        first.appendDisjuncts(to: &disjuncts)
        second.appendDisjuncts(to: &disjuncts)
    }
}

private final class SlotTestNode: PredicateNode {
    let slot: Int
    let test: ValueMatcher
    init(_ slot: Int, _ test: ValueMatcher) {
        self.slot = slot
        self.test = test
    }
    override func evaluate(in scope: PredicateScope, resolver: PredicateResolver) -> Bool {
        test.matches(scope.values[slot])
    }
    override var isRowLocal: Bool { true }
    override func matchesRow(_ values: UnsafeBufferPointer<StoreValue>) -> Bool { test.matches(values[slot]) }
    override var slotTest: (slot: Int, test: ValueMatcher)? { (slot, test) }
}

private final class TestNode: PredicateNode {
    let getter: PredicateGetter
    let test: ValueMatcher
    init(_ getter: PredicateGetter, _ test: ValueMatcher) {
        self.getter = getter
        self.test = test
    }
    override func evaluate(in scope: PredicateScope, resolver: PredicateResolver) -> Bool {
        test.matches(getter.scalar(in: scope, resolver: resolver))
    }
}

private final class QuantifiedNode: PredicateNode {
    let all: Bool
    let getter: PredicateGetter
    let test: ValueMatcher
    init(all: Bool, _ getter: PredicateGetter, _ test: ValueMatcher) {
        self.all = all
        self.getter = getter
        self.test = test
    }
    override func evaluate(in scope: PredicateScope, resolver: PredicateResolver) -> Bool {
        let elements = getter.evaluate(in: scope, resolver: resolver).elements
        return all ? elements.allSatisfy(test.matches) : elements.contains(where: test.matches)
    }
}

private final class DynamicNode: PredicateNode {
    let comparison: DynamicComparison
    init(_ comparison: DynamicComparison) { self.comparison = comparison }
    override func evaluate(in scope: PredicateScope, resolver: PredicateResolver) -> Bool {
        comparison.evaluate(in: scope, resolver: resolver)
    }
}

/// A comparison whose right side is not a constant, such as `price > cost` or
/// `SUBQUERY(…).@count > fruits.@count`.
struct DynamicComparison {
    let lhs: PredicateGetter
    /// `any`/`all` when the left side is a collection.
    let quantifier: Quantifier?
    let op: PredicateExpression.Operator
    let rhs: PredicateGetter
    let options: PredicateExpression.Options
    /// `lhs IN rhs` where `rhs` is a collection: membership.
    let isMembership: Bool

    enum Quantifier { case any, all }
}

/// How to get an operand's value from an object.
indirect enum PredicateGetter {
    /// A slot of the evaluated object.
    case slot(Int)
    /// A key path from the evaluated object or a subquery variable.
    case path(PathRoot, CompiledPath)
    /// The number of objects of a to-many relationship reached through to-one hops.
    case relationshipCount(PathRoot, CompiledPath)
    /// `SELF`, as an object value.
    case evaluatedObject
    /// A subquery variable (an index into the scope's variables), as an object value.
    case variable(Int)
    case constant(StoreValue)
    /// A list of values (`{a, b}` or a constant collection).
    case list([PredicateGetter])
    /// A collection operator over a collection, optionally through a key path of its elements.
    case collection(PredicateGetter, PredicateExpression.CollectionFunction, CompiledPath?)
    /// The elements of a collection (of objects) for which the predicate holds, with the
    /// element bound to the variable at the given index.
    case subquery(PredicateGetter, PredicateNode)
    /// A function of `NSExpression` (arithmetic included) applied to computed arguments.
    case function(PredicateFunction, [PredicateGetter])
    /// `TERNARY(predicate, a, b)`.
    case conditional(PredicateNode, PredicateGetter, PredicateGetter)
    /// `collection[index]`, `[FIRST]`, `[LAST]`, `[SIZE]`.
    case index(PredicateGetter, CompiledIndex)
    /// The length of a string (`name.length`), of each string of a collection.
    case length(PredicateGetter)
    /// A key path from the object another getter gives (`tags[FIRST].name`).
    case member(PredicateGetter, CompiledPath)
    /// The scalar elements of a codable attribute's JSON array (or the values of its JSON
    /// object), for a codable attribute used as a collection; see `CodableElements`.
    case codableElements(PredicateGetter)

    enum PathRoot {
        case object
        case variable(Int)
    }
}

/// What an index expression takes from a collection, compiled.
indirect enum CompiledIndex {
    case first, last, size
    case at(PredicateGetter)
}

/// A key path resolved to slots: relationship hops, then a final slot.
struct CompiledPath {
    struct Hop {
        let slot: Int
        let isToMany: Bool
        /// The destination, when it has sub-entities (whose rows are read in its layout); `nil`
        /// otherwise.
        var destination: EntityInfo? = nil
    }

    let hops: [Hop]
    let last: Int
    /// Whether the final slot is a to-many relationship.
    let lastIsToMany: Bool
    /// The entity the path starts from, when it has sub-entities and the path is applied to
    /// objects reached by ID (variables, collection elements); `nil` otherwise.
    var root: EntityInfo? = nil

    /// Whether the path yields many values (it passes through or ends at a to-many).
    var isCollection: Bool { lastIsToMany || hops.contains { $0.isToMany } }
}
