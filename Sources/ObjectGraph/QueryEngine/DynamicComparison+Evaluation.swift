import Foundation

extension DynamicComparison {
    func evaluate(in scope: PredicateScope, resolver: PredicateResolver) -> Bool {
        let right = rhs.evaluate(in: scope, resolver: resolver)
        if isMembership {
            let element = lhs.scalar(in: scope, resolver: resolver)
            return right.elements.contains { PredicateOrdering.equal(element, $0, options: options) }
        }
        switch quantifier {
        case nil: return test(lhs.scalar(in: scope, resolver: resolver), against: right)
        case .any: return lhs.evaluate(in: scope, resolver: resolver).elements.contains { test($0, against: right) }
        case .all: return lhs.evaluate(in: scope, resolver: resolver).elements.allSatisfy { test($0, against: right) }
        }
    }

    private func test(_ value: StoreValue, against right: PredicateResult) -> Bool {
        switch (op, right) {
        case (.between, .many(let bounds)):
            guard bounds.count == 2, let low = PredicateOrdering.order(value, bounds[0], options: options),
                let high = PredicateOrdering.order(value, bounds[1], options: options)
            else { return false }
            return low >= 0 && high <= 0
        case (.in, .many(let elements)):
            return elements.contains { PredicateOrdering.equal(value, $0, options: options) }
        case (.in, .one(.string(let text))):
            guard case .string(let element) = value else { return false }
            return PreparedString(element, options: options).matches(text, .substring)
        case (_, .one(let other)):
            if let relation = PredicateRelation(op) {
                if value.isNull || other.isNull {
                    switch relation {
                    case .equal: return value.isNull && other.isNull
                    case .notEqual: return value.isNull != other.isNull
                    default: return false
                    }
                }
                switch relation {
                case .equal: return PredicateOrdering.equal(value, other, options: options)
                case .notEqual: return !PredicateOrdering.equal(value, other, options: options)
                default: return relation.holds(PredicateOrdering.order(value, other, options: options))
                }
            }
            guard case .string(let text) = value, case .string(let pattern) = other else { return false }
            switch op {
            case .contains: return PreparedString(pattern, options: options).matches(text, .substring)
            case .beginsWith: return PreparedString(pattern, options: options).matches(text, .prefix)
            case .endsWith: return PreparedString(pattern, options: options).matches(text, .suffix)
            case .like: return LikePattern(pattern, options: options).matches(text)
            case .matches: return (try? PredicateRegex(pattern, options: options))?.matches(text) ?? false
            default: return false
            }
        default:
            return false
        }
    }
}
