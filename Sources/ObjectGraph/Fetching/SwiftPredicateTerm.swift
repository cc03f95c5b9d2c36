import Foundation

/// The part of a ``FetchPredicate`` that only Swift can evaluate: a Foundation `#Predicate` that
/// did not convert, possibly combined with expression trees by `&&`, `||` and `!`.
///
/// An object matches a predicate with a term when it matches the predicate's expression (a
/// necessary condition, checked first and cheaply) and the term.
indirect enum SwiftPredicateTerm: Sendable, Hashable, CustomStringConvertible {
    /// A Foundation predicate, evaluated on the object.
    case swift(SwiftPredicateEvaluator)
    /// An expression tree, evaluated on the object's values.
    case expression(PredicateExpression)
    case not(SwiftPredicateTerm)
    case and([SwiftPredicateTerm])
    case or([SwiftPredicateTerm])

    /// The term in format syntax with each Swift predicate written as `#Predicate<Type>`.
    var description: String { text(nested: false) }

    private func text(nested: Bool) -> String {
        func wrap(_ text: String) -> String { nested ? "(\(text))" : text }
        switch self {
        case .swift(let evaluator): return "#Predicate<\(evaluator.typeName)>"
        case .expression(let expression):
            switch expression {
            case .and, .or: return wrap(expression.description)
            default: return expression.description
            }
        case .not(let term): return "NOT " + term.text(nested: true)
        case .and(let terms): return wrap(terms.map { $0.text(nested: true) }.joined(separator: " AND "))
        case .or(let terms): return wrap(terms.map { $0.text(nested: true) }.joined(separator: " OR "))
        }
    }

    /// The Swift predicates of the term.
    var evaluators: [SwiftPredicateEvaluator] {
        switch self {
        case .swift(let evaluator): [evaluator]
        case .expression: []
        case .not(let term): term.evaluators
        case .and(let terms), .or(let terms): terms.flatMap(\.evaluators)
        }
    }
}

/// A Foundation predicate over a `ManagedObject` subclass, type-erased.
///
/// Compared by identity: two evaluators are equal only if they are the same instance (Foundation
/// predicates are not `Equatable`).
final class SwiftPredicateEvaluator: Sendable, Hashable {
    /// The predicate's input type, for messages.
    let typeName: String
    /// Whether objects of a class can be given to the predicate.
    let accepts: @Sendable (ManagedObject.Type) -> Bool
    /// The predicate's result for an object it accepts.
    let evaluate: @Sendable (ManagedObject) throws -> Bool

    init<Object: ManagedObject>(_ predicate: Predicate<Object>) {
        typeName = "\(Object.self)"
        accepts = { $0 is Object.Type }
        evaluate = { object in
            // `accepts` was checked against the entity's class before the fetch.
            try predicate.evaluate(unsafeDowncast(object, to: Object.self))
        }
    }

    static func == (lhs: SwiftPredicateEvaluator, rhs: SwiftPredicateEvaluator) -> Bool { lhs === rhs }
    func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

/// A ``SwiftPredicateTerm`` checked against an entity, ready to evaluate on fetch candidates.
struct CompiledSwiftTerm {
    private indirect enum Node {
        case swift(SwiftPredicateEvaluator)
        case tree(CompiledPredicate)
        case not(Node)
        case and([Node])
        case or([Node])
    }

    private let root: Node
    let entity: EntityInfo

    /// The compiled term of `predicate`, or `nil` if it has none.
    ///
    /// - Throws: `PersistenceError.Code.invalidFetchRequest` if the entity's objects are not of
    ///   the Swift predicate's input type; the errors of ``CompiledPredicate`` for expressions.
    init?(_ predicate: FetchPredicate, entity: EntityInfo, model: ManagedObjectModel) throws {
        guard let term = predicate.swiftTerm else { return nil }
        for evaluator in term.evaluators where !evaluator.accepts(entity.managedObjectClass) {
            throw PersistenceError.swiftPredicateInputMismatch(predicateType: evaluator.typeName, entity: entity.name)
        }
        func compile(_ term: SwiftPredicateTerm) throws -> Node {
            switch term {
            case .swift(let evaluator): return .swift(evaluator)
            case .expression(let expression):
                return .tree(try CompiledPredicate(expression, entity: entity, model: model))
            case .not(let term): return .not(try compile(term))
            case .and(let terms): return .and(try terms.map(compile))
            case .or(let terms): return .or(try terms.map(compile))
            }
        }
        self.root = try compile(term)
        self.entity = entity
    }

    /// Whether an object matches the term.
    ///
    /// - Parameters:
    ///   - values: The object's current values.
    ///   - key: The object's key, for `SELF` comparisons.
    ///   - object: Makes (or finds) the object itself, for Swift predicates.
    /// - Throws: `PersistenceError.Code.invalidPredicate` wrapping the error a Swift predicate threw.
    func matches(
        _ values: [StoreValue], key: Int64, resolver: PredicateResolver, object: () -> ManagedObject
    ) throws -> Bool {
        func evaluate(_ node: Node) throws -> Bool {
            switch node {
            case .swift(let evaluator):
                let object = object()
                do {
                    return try evaluator.evaluate(object)
                } catch {
                    throw PersistenceError.swiftPredicateFailed(
                        predicateType: evaluator.typeName, object: object.objectID, underlying: error)
                }
            case .tree(let predicate):
                let id = predicate.needsObjectID ? ObjectID(entityName: entity.name, key: key) : nil
                return predicate.matches(values, objectID: id, resolver: resolver)
            case .not(let node): return try !evaluate(node)
            case .and(let nodes):
                for node in nodes where try !evaluate(node) { return false }
                return true
            case .or(let nodes):
                for node in nodes where try evaluate(node) { return true }
                return false
            }
        }
        return try evaluate(root)
    }
}
