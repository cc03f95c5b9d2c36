import Foundation

/// Sort descriptors resolved against an entity, for sorting value arrays.
struct CompiledSort {
    struct Key {
        let getter: PredicateGetter
        let ascending: Bool
        let comparison: SortDescriptor.Comparison
    }

    let keys: [Key]

    /// Resolves each descriptor's key path.
    ///
    /// - Throws: `PersistenceError.Code.unknownKey` for a key path that names no property;
    ///   `.invalidFetchRequest` for a typed key path that reads no stored property, or one that ends at a relationship or a codable attribute, or
    ///   passes through a to-many relationship.
    init(_ descriptors: [SortDescriptor], entity: EntityInfo, model: ManagedObjectModel) throws {
        let compiler = PredicateCompiler(model: model, entity: entity)
        var keys: [Key] = []
        for descriptor in descriptors {
            if let problem = descriptor.keyPathProblem {
                throw PersistenceError.invalidSortDescriptor(problem, key: descriptor.key, entity: entity.name)
            }
            let components = descriptor.key.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            guard components.allSatisfy({ !$0.isEmpty }) else {
                throw PersistenceError.invalidSortDescriptor(
                    "the key path is empty or has an empty component", key: descriptor.key, entity: entity.name)
            }
            if let getter = try Self.objectIDGetter(components, entity: entity, model: model, key: descriptor.key) {
                keys.append(Key(getter: getter, ascending: descriptor.ascending, comparison: descriptor.comparison))
                continue
            }
            let (path, type) = try compiler.resolve(components, from: entity, text: descriptor.key)
            guard !type.isCollection else {
                throw PersistenceError.invalidSortDescriptor(
                    "the key path goes through a to-many relationship; sort by a to-one key path or in Swift",
                    key: descriptor.key, entity: entity.name)
            }
            if case .object = type.kind {
                throw PersistenceError.invalidSortDescriptor(
                    "it is a relationship; sort by one of its attributes, such as '\(descriptor.key).name'",
                    key: descriptor.key, entity: entity.name)
            }
            guard type.kind != .codable else {
                throw PersistenceError.invalidSortDescriptor(
                    "codable attributes have no order", key: descriptor.key, entity: entity.name)
            }
            let getter: PredicateGetter = path.hops.isEmpty ? .slot(path.last) : .path(.object, path)
            keys.append(Key(getter: getter, ascending: descriptor.ascending, comparison: descriptor.comparison))
        }
        self.keys = keys
    }

    /// The sort keys of one object, case-folded where a descriptor compares without case.
    ///
    /// `key` is the object's key, for an `objectID` sort key (`nil` where there is none).
    func sortValues(of values: [StoreValue], key objectKey: Int64? = nil, resolver: PredicateResolver)
        -> [StoreValue]
    {
        let scope = PredicateScope(values: values, objectID: nil, variables: [])
        return keys.map { key in
            // The object's own ID: its key, as every object of a fetch is of one entity.
            if case .evaluatedObject = key.getter { return objectKey.map { .int($0) } ?? .null }
            let value = key.getter.scalar(in: scope, resolver: resolver)
            // A related object's ID (`basket.objectID`): none if that object no longer exists.
            if case .object(let id) = value, resolver.resolve(id) == nil { return .null }
            if key.comparison == .caseInsensitive, case .string(let text) = value {
                return .string(PredicateFolding.fold(text, .caseInsensitive))
            }
            return value
        }
    }

    /// -1, 0 or 1: how two objects' sort keys order.
    func compare(_ lhs: [StoreValue], _ rhs: [StoreValue]) -> Int {
        for (index, key) in keys.enumerated() {
            let order = SortOrdering.compare(lhs[index], rhs[index], key.comparison)
            if order != 0 { return key.ascending ? order : -order }
        }
        return 0
    }
}

/// A total order on stored values for sorting: nil first, then values by kind.
enum SortOrdering {
    static func compare(_ lhs: StoreValue, _ rhs: StoreValue, _ comparison: SortDescriptor.Comparison) -> Int {
        switch (lhs, rhs) {
        case (.null, .null): return 0
        case (.null, _): return -1
        case (_, .null): return 1
        case (.string(let a), .string(let b)):
            switch comparison {
            case .caseSensitive, .caseInsensitive: return a < b ? -1 : (a == b ? 0 : 1)
            case .localized: return a.localizedCompare(b).rawValue
            case .localizedCaseInsensitive: return a.localizedCaseInsensitiveCompare(b).rawValue
            case .localizedStandard: return a.localizedStandardCompare(b).rawValue
            }
        case (.date(let a), .date(let b)):
            return numbers(.double(a.timeIntervalSinceReferenceDate), .double(b.timeIntervalSinceReferenceDate))
        case (.uuid(let a), .uuid(let b)): return strings(a.uuidString, b.uuidString)
        case (.url(let a), .url(let b)): return strings(a.absoluteString, b.absoluteString)
        case (.data(let a), .data(let b)): return a == b ? 0 : (a.lexicographicallyPrecedes(b) ? -1 : 1)
        case (.object(let a), .object(let b)):
            // Object IDs: by entity name, then key (the order objects were inserted in).
            if a.entityName != b.entityName { return strings(a.entityName, b.entityName) }
            return a.key < b.key ? -1 : (a.key == b.key ? 0 : 1)
        default:
            if let a = PredicateNumber(lhs), let b = PredicateNumber(rhs) { return numbers(a, b) }
            return strings(lhs.kindName, rhs.kindName)
        }
    }

    /// Numbers in order, NaN before every other number.
    private static func numbers(_ lhs: PredicateNumber, _ rhs: PredicateNumber) -> Int {
        if let order = PredicateNumber.compare(lhs, rhs) { return order }
        let (leftNaN, rightNaN) = (isNaN(lhs), isNaN(rhs))
        return leftNaN == rightNaN ? 0 : (leftNaN ? -1 : 1)
    }

    private static func isNaN(_ number: PredicateNumber) -> Bool {
        switch number {
        case .int: false
        case .double(let value): value.isNaN
        case .decimal(let value): value.isNaN
        }
    }

    private static func strings(_ lhs: String, _ rhs: String) -> Int {
        lhs < rhs ? -1 : (lhs == rhs ? 0 : 1)
    }
}
