extension PredicateExpression {
    /// The tree with free variables replaced by bound values.
    func substituting(_ variables: [String: Any?], boundBySubquery bound: Set<String>) throws -> PredicateExpression {
        switch self {
        case .constant: return self
        case .not(let inner): return .not(try inner.substituting(variables, boundBySubquery: bound))
        case .and(let operands):
            return .and(try operands.map { try $0.substituting(variables, boundBySubquery: bound) })
        case .or(let operands):
            return .or(try operands.map { try $0.substituting(variables, boundBySubquery: bound) })
        case .comparison(var comparison):
            comparison.lhs = try comparison.lhs.substituting(variables, boundBySubquery: bound)
            comparison.rhs = try comparison.rhs.substituting(variables, boundBySubquery: bound)
            return .comparison(comparison)
        }
    }

    func collectVariables(into names: inout Set<String>, boundBySubquery bound: Set<String>) {
        switch self {
        case .constant: break
        case .not(let inner): inner.collectVariables(into: &names, boundBySubquery: bound)
        case .and(let operands), .or(let operands):
            for operand in operands { operand.collectVariables(into: &names, boundBySubquery: bound) }
        case .comparison(let comparison):
            comparison.lhs.collectVariables(into: &names, boundBySubquery: bound)
            comparison.rhs.collectVariables(into: &names, boundBySubquery: bound)
        }
    }
}

extension PredicateExpression.Operand {
    func substituting(_ variables: [String: Any?], boundBySubquery bound: Set<String>) throws
        -> PredicateExpression.Operand
    {
        switch self {
        case .constant, .evaluatedObject: return self
        case .variable(let name):
            guard !bound.contains(name) else { return self }
            guard let entry = variables[name] else { throw PersistenceError.unboundPredicateVariable(name) }
            do throws(PredicateArgumentProblem) {
                return .constant(try .bind(entry))
            } catch {
                throw PersistenceError.predicateArguments(
                    "the value of $\(name) cannot be used: \(error.reason)", format: nil, position: nil)
            }
        case .keyPath(let base, let keys):
            if case .variable(let name) = base, !bound.contains(name) {
                throw PersistenceError.unsupportedPredicate(
                    "a key path on a substitution variable ('$\(name).\(keys.joined(separator: "."))')",
                    format: nil, position: nil, advice: "Pass the key path's value as the variable instead.")
            }
            return .keyPath(try base.substituting(variables, boundBySubquery: bound), keys)
        case .aggregate(let elements):
            let substituted = try elements.map { try $0.substituting(variables, boundBySubquery: bound) }
            var constants: [PredicateValue] = []
            for element in substituted {
                guard case .constant(let value) = element else { return .aggregate(substituted) }
                constants.append(value)
            }
            return .constant(.array(constants))
        case .collection(let base, let function, let keys):
            return .collection(try base.substituting(variables, boundBySubquery: bound), function, keys)
        case .subquery(let collection, let variable, let predicate):
            return .subquery(
                try collection.substituting(variables, boundBySubquery: bound), variable: variable,
                try predicate.substituting(variables, boundBySubquery: bound.union([variable])))
        case .function(let name, let arguments):
            return .function(name, try arguments.map { try $0.substituting(variables, boundBySubquery: bound) })
        case .ternary(let condition, let whenTrue, let whenFalse):
            return .ternary(
                try condition.substituting(variables, boundBySubquery: bound),
                try whenTrue.substituting(variables, boundBySubquery: bound),
                try whenFalse.substituting(variables, boundBySubquery: bound))
        case .index(let collection, let index):
            let substituted: PredicateExpression.Index =
                switch index {
                case .at(let position): .at(try position.substituting(variables, boundBySubquery: bound))
                default: index
                }
            return .index(try collection.substituting(variables, boundBySubquery: bound), substituted)
        }
    }

    func collectVariables(into names: inout Set<String>, boundBySubquery bound: Set<String>) {
        switch self {
        case .constant, .evaluatedObject: break
        case .variable(let name): if !bound.contains(name) { names.insert(name) }
        case .keyPath(let base, _), .collection(let base, _, _):
            base.collectVariables(into: &names, boundBySubquery: bound)
        case .aggregate(let elements):
            for element in elements { element.collectVariables(into: &names, boundBySubquery: bound) }
        case .subquery(let collection, let variable, let predicate):
            collection.collectVariables(into: &names, boundBySubquery: bound)
            predicate.collectVariables(into: &names, boundBySubquery: bound.union([variable]))
        case .function(_, let arguments):
            for argument in arguments { argument.collectVariables(into: &names, boundBySubquery: bound) }
        case .ternary(let condition, let whenTrue, let whenFalse):
            condition.collectVariables(into: &names, boundBySubquery: bound)
            whenTrue.collectVariables(into: &names, boundBySubquery: bound)
            whenFalse.collectVariables(into: &names, boundBySubquery: bound)
        case .index(let collection, let index):
            collection.collectVariables(into: &names, boundBySubquery: bound)
            if case .at(let position) = index { position.collectVariables(into: &names, boundBySubquery: bound) }
        }
    }
}
