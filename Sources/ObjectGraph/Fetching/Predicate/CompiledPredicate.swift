/// A predicate checked against one entity and compiled for evaluation on value arrays.
///
/// Compiling resolves every key path to slots, checks every comparison's types, and prepares
/// constants (folded strings, `IN` sets, `LIKE` patterns, regular expressions) once, so that
/// matching a row does no lookups by name and, for comparisons of attributes with constants,
/// no allocation. A fetch compiles its predicate once.
struct CompiledPredicate {
    let entity: EntityInfo
    let root: PredicateNode

    /// Checks `predicate` against `entity` and compiles it.
    ///
    /// - Throws: `PersistenceError.Code.unknownKey` for a key path that names no property;
    ///   `.typeMismatch` for comparisons of values that do not compare (a string attribute with
    ///   a number, `BEGINSWITH` on an integer, …); `.invalidPredicate` for key paths that cannot
    ///   be evaluated (past an attribute), unbound variables and invalid patterns. Errors name
    ///   the entity and the key path.
    init(_ predicate: FetchPredicate, entity: EntityInfo, model: ManagedObjectModel) throws {
        var compiler = PredicateCompiler(model: model, entity: entity)
        self.entity = entity
        self.root = try compiler.node(predicate.expression)
    }

    /// Whether an object with `values` (by slot) matches.
    ///
    /// - Parameters:
    ///   - objectID: The object's ID, for `SELF` comparisons; `nil` makes `SELF` nil.
    ///   - resolve: The current values of a related object; `nil` if it does not exist.
    func matches(
        _ values: [StoreValue], objectID: ObjectID? = nil, resolve: (ObjectID) -> [StoreValue]?
    ) -> Bool {
        let scope = PredicateScope(values: values, objectID: objectID, variables: [])
        return root.evaluate(in: scope, resolve: resolve)
    }
}

/// What a predicate evaluates against: the object, and the elements bound by enclosing
/// `SUBQUERY`s (innermost last).
struct PredicateScope {
    let values: [StoreValue]
    let objectID: ObjectID?
    var variables: [ObjectID]
}

/// A compiled predicate.
indirect enum PredicateNode {
    case constant(Bool)
    case not(PredicateNode)
    case and([PredicateNode])
    case or([PredicateNode])
    /// A scalar compared with constants (the fast path).
    case test(PredicateGetter, ValueTest)
    /// Some (or every) element of a collection compared with constants.
    case quantified(all: Bool, PredicateGetter, ValueTest)
    /// Two computed operands compared per object.
    case compare(DynamicComparison)
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

    enum PathRoot {
        case object
        case variable(Int)
    }
}

/// A key path resolved to slots: relationship hops, then a final slot.
struct CompiledPath {
    struct Hop {
        let slot: Int
        let isToMany: Bool
    }

    let hops: [Hop]
    let last: Int
    /// Whether the final slot is a to-many relationship.
    let lastIsToMany: Bool

    /// Whether the path yields many values (it passes through or ends at a to-many).
    var isCollection: Bool { lastIsToMany || hops.contains { $0.isToMany } }
}
