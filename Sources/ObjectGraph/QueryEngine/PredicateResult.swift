import Foundation

/// The value of an operand for one object: one value, or the elements of a collection.
enum PredicateResult {
    case one(StoreValue)
    case many([StoreValue])

    var elements: [StoreValue] {
        switch self {
        case .one(let value): [value]
        case .many(let values): values
        }
    }
}
