import Foundation

/// Comparisons of two stored values of any kinds, for comparisons computed per object.
enum PredicateOrdering {
    static func equal(_ lhs: StoreValue, _ rhs: StoreValue, options: PredicateExpression.Options) -> Bool {
        if lhs.isNull || rhs.isNull { return lhs.isNull && rhs.isNull }
        return PreparedConstant(rhs, options: options).equals(lhs)
    }

    static func order(_ lhs: StoreValue, _ rhs: StoreValue, options: PredicateExpression.Options) -> Int? {
        PreparedConstant(rhs, options: options).order(lhs)
    }
}
