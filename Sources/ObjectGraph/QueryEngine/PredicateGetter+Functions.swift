import Foundation

extension PredicateGetter {
    /// The value of a function call, `TERNARY`, index expression, `.length` or key path from a
    /// computed object.
    func evaluateComputed(in scope: PredicateScope, resolver: PredicateResolver) -> PredicateResult {
        switch self {
        case .function(let function, let arguments):
            return PredicateCalculator.apply(function, arguments.map { $0.evaluate(in: scope, resolver: resolver) })
        case .conditional(let condition, let whenTrue, let whenFalse):
            return (condition.evaluate(in: scope, resolver: resolver) ? whenTrue : whenFalse)
                .evaluate(in: scope, resolver: resolver)
        case .index(let collection, let index):
            let elements = collection.evaluate(in: scope, resolver: resolver).elements
            switch index {
            case .first: return .one(elements.first ?? .null)
            case .last: return .one(elements.last ?? .null)
            case .size: return .one(.int(Int64(elements.count)))
            case .at(let position):
                guard let offset = PredicateCalculator.integer(position.scalar(in: scope, resolver: resolver)),
                    offset >= 0, offset < elements.count
                else { return .one(.null) }
                return .one(elements[Int(offset)])
            }
        case .length(let string):
            switch string.evaluate(in: scope, resolver: resolver) {
            case .one(let value): return .one(PredicateCalculator.length(value))
            case .many(let values): return .many(values.map(PredicateCalculator.length))
            }
        case .member(let base, let path):
            guard case .object(let id) = base.scalar(in: scope, resolver: resolver),
                let values = resolver.resolve(id, as: path.root)
            else { return path.isCollection ? .many([]) : .one(.null) }
            guard path.isCollection else { return .one(path.scalar(from: values, resolver: resolver)) }
            var elements: [StoreValue] = []
            path.collect(from: values, hop: 0, resolver: resolver, into: &elements)
            return .many(elements)
        default:
            return evaluate(in: scope, resolver: resolver)
        }
    }
}
