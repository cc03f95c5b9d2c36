extension PredicatePrinter {
    /// A function call: operators infix (parenthesised where precedence needs it), other
    /// functions as `name(arguments)` with their `NSExpression` names (`sqrt:(x)`).
    static func function(_ name: String, _ arguments: [PredicateExpression.Operand]) -> String {
        let function = PredicateFunction(rawValue: name)
        if function == .onesComplement, arguments.count == 1 {
            return "~\(grouped(arguments[0], tighterThan: PredicateInfixOperator.prefixPrecedence - 1))"
        }
        if function == .subtract, arguments.count == 2, arguments[0] == .constant(.int(0)), !isNumber(arguments[1]) {
            return "-\(grouped(arguments[1], tighterThan: PredicateInfixOperator.prefixPrecedence - 1))"
        }
        if function == .cast, arguments.count == 2, case .constant(.string(let type)) = arguments[1],
            !isConstant(arguments[0])
        {
            return "CAST(\(operand(arguments[0])), \(quoted(type)))"
        }
        if let op = function?.infix, arguments.count == 2 {
            let left = op.isRightAssociative ? op.precedence : op.precedence - 1
            let right = op.isRightAssociative ? op.precedence - 1 : op.precedence
            return
                "\(grouped(arguments[0], tighterThan: left)) \(op.rawValue) \(grouped(arguments[1], tighterThan: right))"
        }
        return "\(name)(\(arguments.map(operand).joined(separator: ", ")))"
    }

    /// An operand that binds tighter than `precedence`, in parentheses if it does not.
    private static func grouped(_ operand: PredicateExpression.Operand, tighterThan precedence: Int) -> String {
        let text = self.operand(operand)
        return self.precedence(of: operand) > precedence ? text : "(\(text))"
    }

    /// How tightly a printed operand binds: operators by their precedence, everything else
    /// (key paths, calls, literals) as a primary.
    private static func precedence(of operand: PredicateExpression.Operand) -> Int {
        switch operand {
        case .function(let name, let arguments):
            let function = PredicateFunction(rawValue: name)
            if function == .onesComplement, arguments.count == 1 { return PredicateInfixOperator.prefixPrecedence }
            if function == .subtract, arguments.count == 2, arguments[0] == .constant(.int(0)),
                !isNumber(arguments[1])
            {
                return PredicateInfixOperator.prefixPrecedence
            }
            if let op = function?.infix, arguments.count == 2 { return op.precedence }
            return .max
        case .constant(.int(let value)) where value < 0: return PredicateInfixOperator.prefixPrecedence
        case .constant(.double(let value)) where value < 0 || value.sign == .minus:
            return PredicateInfixOperator.prefixPrecedence
        default: return .max
        }
    }

    private static func isConstant(_ operand: PredicateExpression.Operand) -> Bool {
        if case .constant = operand { return true }
        return false
    }

    private static func isNumber(_ operand: PredicateExpression.Operand) -> Bool {
        switch operand {
        case .constant(.int), .constant(.double): true
        default: false
        }
    }

    /// The collection of an index expression, in parentheses unless it is a primary.
    static func postfixBase(_ operand: PredicateExpression.Operand) -> String {
        precedence(of: operand) == .max ? self.operand(operand) : "(\(self.operand(operand)))"
    }
}
