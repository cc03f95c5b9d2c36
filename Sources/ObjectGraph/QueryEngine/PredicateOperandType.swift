/// The type of an operand, worked out when a predicate is compiled against an entity.
struct PredicateOperandType {
    enum Kind: Equatable {
        case null, bool, integer, floating, decimal, string, date, data, uuid, url, codable
        /// Objects of the named entity.
        case object(String)
        /// Unknown or mixed (for example a list of values of several kinds).
        case any

        /// Kinds that compare with each other share a family.
        var family: String {
            switch self {
            case .bool, .integer, .floating, .decimal: "number"
            // A codable value is stored as its JSON encoding (sorted keys): equal values are
            // equal data.
            case .codable: "data"
            case .object(let entity): "object of \(entity)"
            default: "\(self)"
            }
        }

        var isNumeric: Bool { family == "number" }

        /// Whether values of the kind can be ordered with `<`.
        var isOrderable: Bool {
            switch self {
            case .bool, .integer, .floating, .decimal, .string, .date, .any, .null: true
            default: false
            }
        }

        /// Whether values of the two kinds can be compared at all.
        func compares(with other: Kind) -> Bool {
            self == .any || other == .any || self == .null || other == .null || family == other.family
        }

        init(_ type: AttributeType) {
            switch type {
            case .string: self = .string
            case .boolean: self = .bool
            case .integer16, .integer32, .integer64: self = .integer
            case .float, .double: self = .floating
            case .decimal: self = .decimal
            case .date: self = .date
            case .binary: self = .data
            case .uuid: self = .uuid
            case .uri: self = .url
            case .codable: self = .codable
            }
        }

        init(_ value: PredicateValue) {
            switch value {
            case .null: self = .null
            case .bool: self = .bool
            case .int: self = .integer
            case .double: self = .floating
            case .decimal: self = .decimal
            case .string: self = .string
            case .date: self = .date
            case .data: self = .data
            case .uuid: self = .uuid
            case .url: self = .url
            case .object(let id): self = .object(id.entityName)
            case .array(let elements): self = Kind(common: elements.map(Kind.init))
            }
        }

        /// The kind shared by every non-null kind in `kinds`, or `.any`.
        init(common kinds: [Kind]) {
            let known = kinds.filter { $0 != .null }
            guard let first = known.first else {
                self = kinds.isEmpty ? .any : .null
                return
            }
            if known.allSatisfy({ $0 == first }) {
                self = first
            } else if known.allSatisfy(\.isNumeric) {
                self = known.contains(.decimal) ? .decimal : (known.contains(.floating) ? .floating : .integer)
            } else {
                self = .any
            }
        }
    }

    /// The kind of the value, or of each element of a collection.
    var kind: Kind
    var isCollection: Bool
    /// For error messages: "integer64", "to-many relationship to Fruit", "String".
    var summary: String

    static func constant(_ value: PredicateValue) -> PredicateOperandType {
        PredicateOperandType(
            kind: Kind(value), isCollection: value.elements != nil,
            summary: value.kindPhrase)
    }
}

extension PredicateExpression.Operator {
    /// The format-syntax spelling, for messages.
    var spelling: String { PredicatePrinter.spelling(of: self) }

    init(_ relation: PredicateRelation) {
        switch relation {
        case .equal: self = .equalTo
        case .notEqual: self = .notEqualTo
        case .less: self = .lessThan
        case .lessOrEqual: self = .lessThanOrEqualTo
        case .greater: self = .greaterThan
        case .greaterOrEqual: self = .greaterThanOrEqualTo
        }
    }
}
