/// Expression trees encode as small tagged objects:
///
/// ```json
/// {"and": [{"comparison": {"lhs": {"keyPath": ["price"]}, "operator": "greaterThan",
///                          "rhs": {"constant": {"int": 100}}, "modifier": "direct", "options": 0}},
///          {"constant": true}]}
/// ```
extension PredicateExpression {
    private enum CodingKeys: String, CodingKey {
        case constant, not, and, or, comparison
    }

    /// Encodes the value (the form `init(from:)` reads).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .constant(let value): try container.encode(value, forKey: .constant)
        case .not(let inner): try container.encode(inner, forKey: .not)
        case .and(let operands): try container.encode(operands, forKey: .and)
        case .or(let operands): try container.encode(operands, forKey: .or)
        case .comparison(let comparison): try container.encode(comparison, forKey: .comparison)
        }
    }

    /// Decodes a value that `encode(to:)` wrote.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if let value = try container.decodeIfPresent(Bool.self, forKey: .constant) {
            self = .constant(value)
        } else if let inner = try container.decodeIfPresent(PredicateExpression.self, forKey: .not) {
            self = .not(inner)
        } else if let operands = try container.decodeIfPresent([PredicateExpression].self, forKey: .and) {
            self = .and(operands)
        } else if let operands = try container.decodeIfPresent([PredicateExpression].self, forKey: .or) {
            self = .or(operands)
        } else {
            self = .comparison(try container.decode(Comparison.self, forKey: .comparison))
        }
    }
}

extension PredicateExpression.Operand {
    private enum CodingKeys: String, CodingKey {
        case constant
        case evaluatedObject = "self"
        case variable, keyPath, base, aggregate, collection, keys, subquery, over
        case function, arguments, ternary, then, `else`, index
    }

    /// Encodes the value (the form `init(from:)` reads).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .constant(let value): try container.encode(value, forKey: .constant)
        case .evaluatedObject: try container.encode(true, forKey: .evaluatedObject)
        case .variable(let name): try container.encode(name, forKey: .variable)
        case .keyPath(let base, let keys):
            try container.encode(keys, forKey: .keyPath)
            if base != .evaluatedObject { try container.encode(base, forKey: .base) }
        case .aggregate(let elements): try container.encode(elements, forKey: .aggregate)
        case .collection(let base, let function, let keys):
            try container.encode(function, forKey: .collection)
            try container.encode(base, forKey: .base)
            if !keys.isEmpty { try container.encode(keys, forKey: .keys) }
        case .subquery(let collection, let variable, let predicate):
            try container.encode(predicate, forKey: .subquery)
            try container.encode(collection, forKey: .over)
            try container.encode(variable, forKey: .variable)
        case .function(let name, let arguments):
            try container.encode(name, forKey: .function)
            try container.encode(arguments, forKey: .arguments)
        case .ternary(let condition, let whenTrue, let whenFalse):
            try container.encode(condition, forKey: .ternary)
            try container.encode(whenTrue, forKey: .then)
            try container.encode(whenFalse, forKey: .else)
        case .index(let collection, let index):
            try container.encode(index, forKey: .index)
            try container.encode(collection, forKey: .base)
        }
    }

    /// Decodes a value that `encode(to:)` wrote.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if let value = try container.decodeIfPresent(PredicateValue.self, forKey: .constant) {
            self = .constant(value)
        } else if container.contains(.evaluatedObject) {
            self = .evaluatedObject
        } else if let name = try container.decodeIfPresent(String.self, forKey: .function) {
            self = .function(name, try container.decode([Self].self, forKey: .arguments))
        } else if let condition = try container.decodeIfPresent(PredicateExpression.self, forKey: .ternary) {
            self = .ternary(
                condition, try container.decode(Self.self, forKey: .then),
                try container.decode(Self.self, forKey: .else))
        } else if let index = try container.decodeIfPresent(PredicateExpression.Index.self, forKey: .index) {
            self = .index(try container.decode(Self.self, forKey: .base), index)
        } else if let keys = try container.decodeIfPresent([String].self, forKey: .keyPath) {
            self = .keyPath(try container.decodeIfPresent(Self.self, forKey: .base) ?? .evaluatedObject, keys)
        } else if let elements = try container.decodeIfPresent([Self].self, forKey: .aggregate) {
            self = .aggregate(elements)
        } else if let function = try container.decodeIfPresent(
            PredicateExpression.CollectionFunction.self, forKey: .collection)
        {
            self = .collection(
                try container.decode(Self.self, forKey: .base), function,
                try container.decodeIfPresent([String].self, forKey: .keys) ?? [])
        } else if let predicate = try container.decodeIfPresent(PredicateExpression.self, forKey: .subquery) {
            self = .subquery(
                try container.decode(Self.self, forKey: .over),
                variable: try container.decode(String.self, forKey: .variable),
                predicate)
        } else {
            self = .variable(try container.decode(String.self, forKey: .variable))
        }
    }
}
