extension SQLPredicateTranslator {
    /// `constant`, compared by `op` with an integer column, with its reals replaced by integers
    /// that select the same integers: for a database that compares an integer with a real as two
    /// reals (PostgreSQL: `9223372036854775807 >= 9.223372036854775807e18` holds there, not in the
    /// engine). `x >= 2.5` becomes `x >= 3`, `x <= 2.5` becomes `x <= 2`, `x == 2.5` is `nil`, and
    /// an `IN` list drops the reals no integer equals. `nil` when a real has no such integer (`NaN`,
    /// an infinity, beyond `Int64`'s range, or `==`/`!=` with a fraction): the engine decides.
    static func integerOperand(_ constant: PredicateValue, _ op: PredicateExpression.Operator) -> PredicateValue? {
        func rounded(_ value: PredicateValue, _ rule: FloatingPointRoundingRule) -> PredicateValue? {
            guard case .double(let number) = value else { return value }
            return Int64(exactly: number.rounded(rule)).map { .int($0) }
        }
        switch op {
        case .equalTo, .notEqualTo:
            guard case .double(let number) = constant else { return constant }
            return number.rounded() == number ? rounded(constant, .towardZero) : nil
        case .lessThan, .greaterThanOrEqualTo:
            return rounded(constant, .up)
        case .greaterThan, .lessThanOrEqualTo:
            return rounded(constant, .down)
        case .between:
            guard let bounds = constant.elements, bounds.count == 2,
                let low = rounded(bounds[0], .up), let high = rounded(bounds[1], .down)
            else { return nil }
            return .array([low, high])
        case .in:
            guard let elements = constant.elements else { return constant }
            return .array(
                elements.compactMap { element in
                    guard case .double(let number) = element else { return element }
                    return Int64(exactly: number).map { .int($0) }
                })
        default:
            return constant
        }
    }
}
