import Foundation

extension PredicateValue {
    /// How deep arrays and sets in one argument may nest (Docs/Predicates.md, "Limits").
    static let maximumArgumentNesting = 100

    /// Binds a Swift value: `nil`, strings, numbers, `Bool`, `Decimal`, `Date`, `Data`, `UUID`,
    /// `URL`, any ``AttributeValue`` (by its stored form), managed objects (by ID), ``ObjectID``s,
    /// ``StoreValue``s, and arrays or sets of these; Foundation's bridged objects (`NSNumber`,
    /// `NSString`, `NSDate`, `NSArray`, `NSSet`, …) as their Swift counterparts (see
    /// `FoundationBridging.unbridgedFoundationValue(_:)`), and `NSNull` as `nil`.
    static func bind(_ argument: Any?, depth: Int = 0) throws(PredicateArgumentProblem) -> PredicateValue {
        guard let value = FoundationBridging.unwrapped(argument, keepingNumbers: false) else { return .null }
        switch value {
        case let value as PredicateValue: return value
        case let convertible as any PredicateArgumentConvertible: return try convertible.predicateValue()
        case let id as ObjectID: return .object(id)
        case let stored as StoreValue: return PredicateValue(stored)
        case let string as String: return .string(string)
        case let text as Substring: return .string(String(text))
        case let bool as Bool: return .bool(bool)
        // Arrays and dictionaries of codable values are attribute values too, but an argument
        // that is one means its elements (`name IN %@`).
        case let known as any AttributeValue where !Self.isCollection(value):
            return PredicateValue(known.storeValue)
        case let integer as any BinaryInteger:
            guard let exact = Int64(exactly: integer) else {
                throw PredicateArgumentProblem(reason: "the integer \(type(of: integer)) does not fit in 64 bits")
            }
            return .int(exact)
        case let number as any BinaryFloatingPoint: return .double(Double(number))
        case let sequence as any Sequence:
            let mirror = Mirror(reflecting: value)
            guard mirror.displayStyle != .dictionary else {
                throw PredicateArgumentProblem(reason: "a dictionary cannot be a predicate value; pass an array or set")
            }
            guard depth < maximumArgumentNesting else {
                throw PredicateArgumentProblem(
                    reason: PersistenceError.predicateArgumentTooDeep(limit: maximumArgumentNesting))
            }
            var elements: [PredicateValue] = []
            for element in anyElements(sequence) { elements.append(try bind(element, depth: depth + 1)) }
            if mirror.displayStyle == .set {
                // Sets have no order of their own: print and encode them in a canonical one.
                elements.sort { PredicatePrinter.literal($0) < PredicatePrinter.literal($1) }
            }
            return .array(elements)
        default:
            throw PredicateArgumentProblem(
                reason: "a value of type \(type(of: value)) cannot be used in a predicate; pass a string, number, "
                    + "Bool, Decimal, Date, Data, UUID, URL, managed object, ObjectID, or an array or set of them")
        }
    }

    /// Whether `value` is an array, set or dictionary (not `Data` or a string).
    private static func isCollection(_ value: Any) -> Bool {
        switch Mirror(reflecting: value).displayStyle {
        case .collection, .set, .dictionary: true
        default: false
        }
    }

    init(_ stored: StoreValue) {
        switch stored {
        case .null: self = .null
        case .bool(let value): self = .bool(value)
        case .int(let value): self = .int(value)
        case .float(let value): self = .double(Double(value))
        case .double(let value): self = .double(value)
        case .string(let value): self = .string(value)
        case .decimal(let value): self = .decimal(value)
        case .date(let value): self = .date(value)
        case .data(let value): self = .data(value)
        case .uuid(let value): self = .uuid(value)
        case .url(let value): self = .url(value)
        case .object(let value): self = .object(value)
        case .objects(let values): self = .array(values.map { .object($0) })
        }
    }

    /// The value as a `%d` argument: an integer (or `Bool`).
    static func bindInteger(_ argument: Any?) throws(PredicateArgumentProblem) -> PredicateValue {
        switch try bind(argument) {
        case .int(let value): return .int(value)
        case .bool(let value): return .int(value ? 1 : 0)
        case let other: throw PredicateArgumentProblem(reason: "it is \(other.kindPhrase), not an integer")
        }
    }

    /// The value as a `%f` argument: any number, as a `Double`.
    static func bindFloatingPoint(_ argument: Any?) throws(PredicateArgumentProblem) -> PredicateValue {
        switch try bind(argument) {
        case .int(let value): return .double(Double(value))
        case .double(let value): return .double(value)
        case .decimal(let value): return .double(NSDecimalNumber(decimal: value).doubleValue)
        case let other: throw PredicateArgumentProblem(reason: "it is \(other.kindPhrase), not a number")
        }
    }
}

private func anyElements(_ sequence: some Sequence) -> [Any] {
    sequence.map { $0 as Any }
}
