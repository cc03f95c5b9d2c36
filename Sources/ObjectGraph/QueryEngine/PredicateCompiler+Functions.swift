import Foundation

/// Functions, arithmetic, `TERNARY`, index expressions and `.length`: checked against the
/// entity's types and compiled to getters evaluated per object (never to the row fast paths).
/// Calls whose arguments are all constant (`now()`, `2 * 3`) are computed once, so that
/// `date > now() - 86400` is a comparison with a constant.
extension PredicateCompiler {
    mutating func function(_ name: String, _ arguments: [PredicateExpression.Operand], text: String) throws
        -> Operand
    {
        guard let function = PredicateFunction(rawValue: name) else {
            if name == "FUNCTION", arguments.count >= 2, case .constant(.string(let selector)) = arguments[1] {
                throw PersistenceError.unsupportedPredicate(
                    "the function call 'FUNCTION(…)' with the selector '\(selector)' (a method call)", format: nil,
                    position: nil,
                    advice: "Use a function of NSExpression, such as uppercase:(name), or compute the value in Swift.")
            }
            throw PersistenceError.unsupportedPredicate(
                "the function '\(name)'", format: nil, position: nil,
                advice: "Use one of \(PredicateFunction.allCases.map(\.rawValue).joined(separator: ", ")).")
        }
        guard arguments.count == function.arity else {
            throw PersistenceError.unsupportedPredicate(
                "the function '\(name)' with \(arguments.count) arguments (it takes \(function.arity))", format: nil,
                position: nil)
        }
        var compiled: [Operand] = []
        for argument in arguments { compiled.append(try operand(argument)) }
        let kind = try resultKind(of: function, compiled, text: text)
        let getter = PredicateGetter.function(function, compiled.map(\.getter))
        let type = OperandType(
            kind: kind, isCollection: function == .mode, summary: "the result of \(function.rawValue)")
        if !function.isRandom, compiled.allSatisfy({ $0.constant != nil }) {
            return folded(getter, type: type, text: text)
        }
        return Operand(getter: getter, type: type, constant: nil, text: text)
    }

    /// The kind of the function's result, after checking its arguments' types.
    private func resultKind(of function: PredicateFunction, _ arguments: [Operand], text: String) throws
        -> OperandType.Kind
    {
        if function.isAggregate {
            let argument = arguments[0]
            guard argument.type.isCollection else {
                throw mismatch(
                    "applies \(function.rawValue) to '\(argument.text)', which is \(argument.type.summary), not a "
                        + "collection", key: argument.text)
            }
            let kind = argument.type.kind
            switch function {
            case .count: return .integer
            case .mode, .randomElement: return kind
            case .min, .max:
                guard kind.isOrderable else {
                    throw mismatch(
                        "applies \(function.rawValue) to '\(argument.text)', whose values do not order", key: text)
                }
                return kind
            default:
                try requireNumbers(function, argument, kind)
                if function == .sum { return kind == .bool ? .integer : kind }
                return kind == .decimal && function == .average ? .decimal : .floating
            }
        }
        for argument in arguments where argument.type.isCollection {
            throw mismatch(
                "applies \(function.rawValue) to the collection '\(argument.text)'; use an aggregate function such "
                    + "as sum: or an index such as [FIRST]", key: argument.text)
        }
        let kinds = arguments.map(\.type.kind)
        switch function {
        case .now: return .date
        case .random: return .floating
        case .randomn:
            try requireNumbers(function, arguments[0], kinds[0])
            return .integer
        case .lowercase, .uppercase, .length:
            guard [.string, .any, .null].contains(kinds[0]) else {
                throw mismatch(
                    "applies \(function.rawValue) to '\(arguments[0].text)', which is \(arguments[0].type.summary), "
                        + "not a string", key: arguments[0].text)
            }
            return function == .length ? .integer : .string
        case .noindex: return kinds[0]
        case .cast:
            guard case .string(let type)? = arguments[1].constant, PredicateFunction.castTypes.contains(type) else {
                throw PersistenceError.unsupportedPredicate(
                    "CAST to '\(arguments[1].text)'", format: nil, position: nil,
                    advice: "Cast to \(PredicateFunction.castTypes.sorted().joined(separator: ", ")).")
            }
            switch type {
            case "NSDate": return .date
            case "NSString": return .string
            case "NSDecimalNumber": return .decimal
            default:
                return kinds[0] == .integer || kinds[0] == .bool
                    ? .integer : (kinds[0] == .decimal ? .decimal : .floating)
            }
        case .add, .subtract:
            // Dates move by seconds; the difference of two dates is in seconds.
            if kinds.contains(.date) {
                let other = kinds[0] == .date ? (arguments[1], kinds[1]) : (arguments[0], kinds[0])
                if function == .subtract, kinds == [.date, .date] { return .floating }
                guard function == .add || kinds[0] == .date, other.1.isNumeric || other.1 == .any || other.1 == .null
                else {
                    throw mismatch(
                        "uses \(function.rawValue) with a date and '\(other.0.text)', which is \(other.0.type.summary)"
                            + "; add or subtract seconds", key: other.0.text)
                }
                return .date
            }
        default: break
        }
        for (argument, kind) in zip(arguments, kinds) { try requireNumbers(function, argument, kind) }
        if function.isBitwise { return .integer }
        switch function {
        case .add, .subtract, .multiply, .modulus, .abs, .ceiling, .floor, .trunc:
            return OperandType.Kind(common: kinds.map { $0 == .bool ? .integer : $0 })
        case .divide: return kinds.contains(.decimal) ? .decimal : .floating
        default: return .floating
        }
    }

    private func requireNumbers(_ function: PredicateFunction, _ argument: Operand, _ kind: OperandType.Kind) throws {
        guard kind.isNumeric || kind == .any || kind == .null else {
            throw mismatch(
                "applies \(function.rawValue) to '\(argument.text)', which is \(argument.type.summary), not a number",
                key: argument.text)
        }
    }

    /// A getter of constants computed now, as a constant operand.
    private func folded(_ getter: PredicateGetter, type: OperandType, text: String) -> Operand {
        let scope = PredicateScope(values: [], objectID: nil, variables: [])
        let value: PredicateValue
        switch getter.evaluate(in: scope, resolver: PredicateResolver { _ in nil }) {
        case .one(let stored): value = PredicateValue(stored)
        case .many(let stored): value = .array(stored.map { PredicateValue($0) })
        }
        return Operand(getter: getter, type: .constant(value), constant: value, text: text)
    }

    // MARK: - TERNARY

    mutating func ternary(
        _ condition: PredicateExpression, _ whenTrue: PredicateExpression.Operand,
        _ whenFalse: PredicateExpression.Operand, text: String
    ) throws -> Operand {
        let node = try self.node(condition)
        let first = try operand(whenTrue)
        let second = try operand(whenFalse)
        if let holds = node.constantValue { return holds ? first : second }
        let kind = OperandType.Kind(common: [first.type.kind, second.type.kind])
        let type = OperandType(
            kind: kind, isCollection: first.type.isCollection || second.type.isCollection,
            summary: "the result of TERNARY")
        return Operand(getter: .conditional(node, first.getter, second.getter), type: type, constant: nil, text: text)
    }

    // MARK: - Index expressions

    mutating func index(_ collection: PredicateExpression.Operand, _ index: PredicateExpression.Index, text: String)
        throws -> Operand
    {
        let source = try operand(collection)
        guard source.type.isCollection else {
            throw mismatch(
                "indexes '\(source.text)', which is \(source.type.summary), not a collection", key: source.text)
        }
        let compiled: CompiledIndex
        switch index {
        case .first: compiled = .first
        case .last: compiled = .last
        case .size:
            let type = OperandType(kind: .integer, isCollection: false, summary: "the result of [SIZE]")
            return Operand(getter: .index(source.getter, .size), type: type, constant: nil, text: text)
        case .at(let position):
            let compiledPosition = try operand(position)
            let kind = compiledPosition.type.kind
            guard !compiledPosition.type.isCollection, kind == .integer || kind == .any || kind == .null else {
                throw mismatch(
                    "indexes '\(source.text)' with '\(compiledPosition.text)', which is "
                        + "\(compiledPosition.type.summary), not an integer", key: compiledPosition.text)
            }
            compiled = .at(compiledPosition.getter)
        }
        let summary =
            if case .object(let name) = source.type.kind { "a \(name) object" } else {
                "an element of '\(source.text)'"
            }
        let type = OperandType(kind: source.type.kind, isCollection: false, summary: summary)
        return Operand(getter: .index(source.getter, compiled), type: type, constant: nil, text: text)
    }

    /// `base.keys` where `base` is an object computed by an index expression (`tags[FIRST].name`).
    mutating func member(_ base: PredicateExpression.Operand, _ keys: [String], text: String) throws -> Operand {
        let source = try operand(base)
        guard case .object(let name) = source.type.kind, let element = model.info(named: name) else {
            throw PersistenceError.invalidPredicateKeyPath(
                "follows a key path from '\(source.text)', which is \(source.type.summary), not an object", key: text,
                entity: entity.name)
        }
        let (path, type) = try resolve(keys, from: element, text: text)
        return Operand(getter: .member(source.getter, path), type: type, constant: nil, text: text)
    }

    // MARK: - String length

    /// `name.length`: the key path up to a string attribute, then `length` (the number of
    /// UTF-16 code units, as `NSString.length`); `nil` for any other key path.
    mutating func stringLength(_ base: PredicateExpression.Operand, _ keys: [String], text: String) throws
        -> Operand?
    {
        guard keys.count > 1, keys.last == "length" else { return nil }
        let prefix = PredicateExpression.Operand.keyPath(base, Array(keys.dropLast()))
        guard case .keyPath(let root, let rootKeys) = prefix else { return nil }
        let rootEntity: EntityInfo
        switch root {
        case .evaluatedObject: rootEntity = entity
        case .variable(let name): rootEntity = try variable(name).1
        default: return nil
        }
        guard (try? resolve(rootKeys, from: rootEntity, text: text))?.1.kind == .string else { return nil }
        let string = try operand(prefix)
        let type = OperandType(
            kind: .integer, isCollection: string.type.isCollection,
            summary: string.type.isCollection ? "a collection of string lengths" : "a string length")
        return Operand(getter: .length(string.getter), type: type, constant: nil, text: text)
    }
}
