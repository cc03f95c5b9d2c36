import Foundation

/// The values of one row in the attributes of a compound index, compared column by column
/// (lexicographically: a key that is a prefix of another sorts before it).
struct CompoundIndexKey: Comparable, Sendable {
    /// One column's value. Within a column every value has the same case (or is `null`); the
    /// case order only puts `null` first and `past` last.
    enum Component: Comparable, Sendable {
        /// No value (nil, or NaN): before every value.
        case null
        case integer(Int64)
        case real(Double)
        case decimal(Decimal)
        case string(String)
        case uuid(UUIDIndexKey)
        /// After every value: ends a range that takes every key with a given prefix.
        case past
    }

    /// How a column's stored values become components.
    enum Column: Sendable, Equatable {
        case integer, real, decimal, string, uuid

        /// The column of an attribute of `type`, or `nil` if the type is not indexable.
        init?(_ type: AttributeType) {
            switch type {
            case .integer16, .integer32, .integer64, .boolean: self = .integer
            case .float, .double, .date: self = .real
            case .decimal: self = .decimal
            case .string: self = .string
            case .uuid: self = .uuid
            default: return nil
            }
        }

        /// The component of `value`; `null` for nil, NaN and values of another type.
        func component(_ value: StoreValue) -> Component {
            switch self {
            case .integer: AttributeIndex.integer(value).map(Component.integer) ?? .null
            case .real: AttributeIndex.real(value).map(Component.real) ?? .null
            case .decimal: AttributeIndex.decimal(value).map(Component.decimal) ?? .null
            case .string: if case .string(let text) = value { .string(text) } else { .null }
            case .uuid: if case .uuid(let uuid) = value { .uuid(UUIDIndexKey(uuid)) } else { .null }
            }
        }
    }

    var components: [Component]

    static func < (lhs: CompoundIndexKey, rhs: CompoundIndexKey) -> Bool {
        for (left, right) in zip(lhs.components, rhs.components) where left != right { return left < right }
        return lhs.components.count < rhs.components.count
    }
}
