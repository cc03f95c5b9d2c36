import Foundation

extension PredicateGetter {
    /// The operand's value; for a collection, `nil`.
    func scalar(in scope: PredicateScope, resolver: PredicateResolver) -> StoreValue {
        switch self {
        case .slot(let slot): return scope.values[slot]
        case .path(let root, let path) where !path.isCollection:
            guard let values = root.values(in: scope, resolver: resolver) else { return .null }
            return path.scalar(from: values, resolver: resolver)
        default:
            guard case .one(let value) = evaluate(in: scope, resolver: resolver) else { return .null }
            return value
        }
    }

    func evaluate(in scope: PredicateScope, resolver: PredicateResolver) -> PredicateResult {
        switch self {
        case .slot(let slot): return .one(scope.values[slot])
        case .path(let root, let path):
            guard let values = root.values(in: scope, resolver: resolver, as: path.root) else {
                return path.isCollection ? .many([]) : .one(.null)
            }
            guard path.isCollection else { return .one(path.scalar(from: values, resolver: resolver)) }
            var elements: [StoreValue] = []
            path.collect(from: values, hop: 0, resolver: resolver, into: &elements)
            return .many(elements)
        case .relationshipCount(let root, let path):
            guard let values = root.values(in: scope, resolver: resolver, as: path.root),
                case .objects(let ids) = path.scalar(from: values, resolver: resolver)
            else { return .one(.int(0)) }
            return .one(.int(Int64(ids.reduce(0) { $0 + (resolver.resolve($1) == nil ? 0 : 1) })))
        case .evaluatedObject: return .one(scope.objectID.map { .object($0) } ?? .null)
        case .variable(let index): return .one(.object(scope.variables[index]))
        case .constant(let value): return .one(value)
        case .list(let getters): return .many(getters.map { $0.scalar(in: scope, resolver: resolver) })
        case .collection(let base, let function, let path):
            let elements = base.evaluate(in: scope, resolver: resolver).elements
            guard function != .count else { return .one(.int(Int64(elements.count))) }
            guard let path else { return .one(PredicateAggregation.apply(function, to: elements)) }
            var values: [StoreValue] = []
            for element in elements {
                guard case .object(let id) = element, let object = resolver.resolve(id, as: path.root) else { continue }
                if path.isCollection {
                    path.collect(from: object, hop: 0, resolver: resolver, into: &values)
                } else {
                    values.append(path.scalar(from: object, resolver: resolver))
                }
            }
            return .one(PredicateAggregation.apply(function, to: values))
        case .subquery(let base, let predicate):
            var kept: [StoreValue] = []
            for element in base.evaluate(in: scope, resolver: resolver).elements {
                guard case .object(let id) = element else { continue }
                var inner = scope
                inner.variables.append(id)
                if predicate.evaluate(in: inner, resolver: resolver) { kept.append(element) }
            }
            return .many(kept)
        case .function, .conditional, .index, .length, .member:
            return evaluateComputed(in: scope, resolver: resolver)
        case .codableElements(let base):
            guard case .data(let json) = base.scalar(in: scope, resolver: resolver) else { return .many([]) }
            return .many(CodableElements.decode(json))
        }
    }
}

extension PredicateGetter.PathRoot {
    func values(in scope: PredicateScope, resolver: PredicateResolver, as entity: EntityInfo? = nil) -> [StoreValue]? {
        switch self {
        case .object: scope.values
        case .variable(let index): resolver.resolve(scope.variables[index], as: entity)
        }
    }
}
