import Foundation

// Arithmetic and conditionals of a `#Predicate`, as the functions of the format language.
// Integer division is left to Swift: `divide:by:` gives a fraction, as Apple's does.

extension SwiftPredicateConversion {
    /// A function of two operands, at least one not a constant (constants alone Swift computes).
    mutating func call(_ function: PredicateFunction, _ lhs: Any, _ rhs: Any) -> SwiftConvertedNode? {
        guard let left = operand(lhs), let right = operand(rhs), !(isConstant(left) && isConstant(right)) else {
            return nil
        }
        return .operand(.function(function.rawValue, [left, right]), isBoolean: false)
    }
}

/// Whether an operand is a constant (a call of constants only is left to Swift).
private func isConstant(_ operand: PredicateExpression.Operand) -> Bool {
    if case .constant = operand { return true }
    return false
}
