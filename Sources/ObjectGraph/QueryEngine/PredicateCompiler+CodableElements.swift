extension PredicateCompiler {
    /// A codable attribute used where a predicate expects a collection (`ANY`, `ALL`, `NONE`,
    /// `CONTAINS`, the right side of `IN`, a collection operator such as `@count`), as the
    /// collection of its elements: the scalars of its stored JSON array, or the values of its
    /// JSON object, decoded as each object is evaluated. `nil` for any other operand, which
    /// keeps its meaning (a codable attribute compared with `==` still compares whole values).
    func codableElements(_ operand: Operand) -> Operand? {
        guard operand.type.kind == .codable, !operand.type.isCollection, operand.constant == nil else { return nil }
        return Operand(
            getter: .codableElements(operand.getter),
            type: OperandType(kind: .any, isCollection: true, summary: "the elements of a codable value"),
            constant: nil, text: operand.text)
    }
}
