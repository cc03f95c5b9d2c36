import Foundation

/// `a + b`, `a - b`, `a * b`: `add:to:`, `from:subtract:`, `multiply:by:`.
extension PredicateExpressions.Arithmetic: SwiftPredicateConvertible {
    func converted(_ conversion: inout SwiftPredicateConversion) -> SwiftConvertedNode? {
        let function: PredicateFunction
        switch op {
        case .add: function = .add
        case .subtract: function = .subtract
        case .multiply: function = .multiply
        @unknown default: return nil
        }
        return conversion.call(function, lhs, rhs)
    }
}

/// `a / b` of floating-point values: `divide:by:`.
extension PredicateExpressions.FloatDivision: SwiftPredicateConvertible {
    func converted(_ conversion: inout SwiftPredicateConversion) -> SwiftConvertedNode? {
        conversion.call(.divide, lhs, rhs)
    }
}

/// `a % b` of integers: `modulus:by:` (a remainder with the dividend's sign, as Swift's).
extension PredicateExpressions.IntRemainder: SwiftPredicateConvertible {
    func converted(_ conversion: inout SwiftPredicateConversion) -> SwiftConvertedNode? {
        conversion.call(.modulus, lhs, rhs)
    }
}

/// `-a`: `-a` of the format language (`from:subtract:(0, a)`).
extension PredicateExpressions.UnaryMinus: SwiftPredicateConvertible {
    func converted(_ conversion: inout SwiftPredicateConversion) -> SwiftConvertedNode? {
        switch conversion.operand(wrapped) {
        case .constant(.int(let value))? where value != .min: return .operand(.constant(.int(-value)), isBoolean: false)
        case .constant(.double(let value))?: return .operand(.constant(.double(-value)), isBoolean: false)
        case nil, .constant?: return nil
        case let operand?:
            return .operand(
                .function(PredicateFunction.subtract.rawValue, [.constant(.int(0)), operand]), isBoolean: false)
        }
    }
}

/// `test ? a : b`: `TERNARY(test, a, b)`.
extension PredicateExpressions.Conditional: SwiftPredicateConvertible {
    func converted(_ conversion: inout SwiftPredicateConversion) -> SwiftConvertedNode? {
        guard let condition = conversion.predicate(test), let whenTrue = conversion.operand(trueBranch),
            let whenFalse = conversion.operand(falseBranch)
        else { return nil }
        return .operand(.ternary(condition, whenTrue, whenFalse), isBoolean: Output.self == Bool.self)
    }
}
