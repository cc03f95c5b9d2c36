import Foundation

extension ManagedObject {
    /// The value at the end of a dotted key path, following relationships from this object.
    ///
    /// Each key but the last names a relationship. Through a to-one relationship the path goes
    /// on from the related object (`nil` if there is none). Through a to-many relationship the
    /// rest of the path is read from every related object and the values are collected as
    /// Core Data's key-value coding does: a `Set<AnyHashable>` for an unordered relationship, an
    /// `[Any]` in relationship order for an ordered one; `nil` values are left out (Core Data
    /// puts `NSNull` in their place). Right after a to-many relationship a collection operator
    /// may stand:
    ///
    /// - `@count`: the number of related objects, an `Int`.
    /// - `@sum.path`, `@avg.path`: the sum and mean of the numbers at `path` (`nil` values left
    ///   out). The sum is an `Int64` for integers (a `Double` if it overflows), a `Double` for
    ///   floating-point values and a `Decimal` if any value is a `Decimal`; the mean is a
    ///   `Double`, or a `Decimal` for decimals, and `nil` for no values.
    /// - `@min.path`, `@max.path`: the smallest and largest value at `path` (numbers, strings,
    ///   dates), `nil` for no values.
    /// - `@unionOfObjects.path`, `@distinctUnionOfObjects.path`: the values at `path` as an
    ///   `[Any]`, all of them or each once.
    ///
    /// For example:
    /// ```swift
    /// let label = try fruit.value(forKeyPath: "basket.label") as? String
    /// let names = try basket.value(forKeyPath: "fruits.name") as? Set<String>
    /// let total = try basket.value(forKeyPath: "fruits.@sum.price") as? Int64
    /// ```
    ///
    /// - Throws: `PersistenceError.Code.unknownKey` for a key the entity on its way lacks, a key
    ///   after an attribute, an unknown or misplaced operator, or an operator given values it
    ///   cannot combine; the error's `key` is the whole path.
    /// - Complexity: O(*k*) for *k* keys through to-one relationships; O(*n*) for the *n*
    ///   objects reached through to-many ones.
    ///
    /// Core Data: `NSObject.value(forKeyPath:)` on an `NSManagedObject`.
    public func value(forKeyPath keyPath: String) throws -> Any? {
        let keys = keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        if let model = context?.model { try check(keys, path: keyPath, in: model) }
        return try value(following: keys[...], path: keyPath)
    }

    /// Checks the whole path against the model first, so that a wrong key is an error whatever
    /// the data (a `nil` to-one relationship or an empty to-many one on the way included).
    private func check(_ keys: [String], path: String, in model: ManagedObjectModel) throws {
        var current = info
        var followsToMany = false
        for (index, key) in keys.enumerated() {
            let isLast = index == keys.count - 1
            if key.hasPrefix("@") {
                guard followsToMany else {
                    throw PersistenceError.invalidKeyPath(
                        path, problem: "has the operator '\(key)' where no to-many relationship precedes it",
                        entity: info.name, objectID: objectID)
                }
                let known = ["@count", "@sum", "@avg", "@min", "@max", "@unionOfObjects", "@distinctUnionOfObjects"]
                guard known.contains(key) else {
                    throw PersistenceError.invalidKeyPath(
                        path, problem: "uses the unknown operator '\(key)'", entity: info.name, objectID: objectID)
                }
                guard (key == "@count") == isLast else {
                    throw PersistenceError.invalidKeyPath(
                        path,
                        problem: key == "@count" ? "continues after '@count'" : "does not say what '\(key)' applies to",
                        entity: info.name, objectID: objectID)
                }
                followsToMany = false
                continue
            }
            guard let slot = current.slotByName[key] else {
                throw PersistenceError.unknownKey(
                    key, entity: current.name, objectID: current === info ? objectID : nil)
            }
            if current.isAttribute(slot) {
                guard isLast else {
                    throw PersistenceError.invalidKeyPath(
                        path, problem: "continues after the attribute '\(key)'", entity: info.name, objectID: objectID)
                }
                return
            }
            let relationship = current.relationship(at: slot)
            followsToMany = relationship.description.isToMany
            if !followsToMany, !isLast, keys[index + 1].hasPrefix("@") {
                throw PersistenceError.invalidKeyPath(
                    path, problem: "applies '\(keys[index + 1])' to the to-one relationship '\(key)'",
                    entity: info.name, objectID: objectID)
            }
            current = model.infos[relationship.destinationIndex]
        }
    }

    /// The value at the end of `keys`, the rest of `path` from this object.
    private func value(following keys: ArraySlice<String>, path: String) throws -> Any? {
        guard let key = keys.first else { return nil }
        if key.hasPrefix("@") {
            throw PersistenceError.invalidKeyPath(
                path, problem: "has the operator '\(key)' where no to-many relationship precedes it",
                entity: info.name, objectID: objectID)
        }
        let slot = try slot(forKey: key)
        let rest = keys.dropFirst()
        if rest.isEmpty { return try value(forKey: key) }
        guard !info.isAttribute(slot) else {
            throw PersistenceError.invalidKeyPath(
                path, problem: "continues after the attribute '\(key)'", entity: info.name, objectID: objectID)
        }
        observationAccess(slot)
        let relationship = info.relationship(at: slot).description
        let related = relatedObjects(values[slot])
        guard relationship.isToMany else {
            if let next = rest.first, next.hasPrefix("@") {
                throw PersistenceError.invalidKeyPath(
                    path, problem: "applies '\(next)' to the to-one relationship '\(key)'", entity: info.name,
                    objectID: objectID)
            }
            return try related.first?.value(following: rest, path: path)
        }
        return try collect(related, isOrdered: relationship.isOrdered, following: rest, path: path)
    }

    /// The values of `rest` over the objects of a to-many relationship, or an operator's result.
    private func collect(
        _ objects: [ManagedObject], isOrdered: Bool, following rest: ArraySlice<String>, path: String
    ) throws -> Any? {
        guard let first = rest.first, first.hasPrefix("@") else {
            let values = try objects.compactMap { try $0.value(following: rest, path: path) }
            return isOrdered ? values : Set(values.map(Self.hashable))
        }
        let operand = rest.dropFirst()
        if first == "@count" {
            guard operand.isEmpty else {
                throw PersistenceError.invalidKeyPath(
                    path, problem: "continues after '@count'", entity: info.name, objectID: objectID)
            }
            return objects.count
        }
        guard !operand.isEmpty else {
            throw PersistenceError.invalidKeyPath(
                path, problem: "does not say what '\(first)' applies to", entity: info.name, objectID: objectID)
        }
        let values = try objects.compactMap { try $0.value(following: operand, path: path) }
        let result: KeyPathAggregate.Outcome
        switch first {
        case "@sum": result = KeyPathAggregate.sumOrAverage(.sum, values)
        case "@avg": result = KeyPathAggregate.sumOrAverage(.avg, values)
        case "@min": result = KeyPathAggregate.extreme(values, smallest: true)
        case "@max": result = KeyPathAggregate.extreme(values, smallest: false)
        case "@unionOfObjects": return values
        case "@distinctUnionOfObjects":
            var seen: Set<AnyHashable> = []
            return values.filter { seen.insert(Self.hashable($0)).inserted }
        default:
            throw PersistenceError.invalidKeyPath(
                path, problem: "uses the unknown operator '\(first)'", entity: info.name, objectID: objectID)
        }
        switch result {
        case .value(let value): return value
        case .cannotCombine(let typeName):
            throw PersistenceError.invalidKeyPath(
                path, problem: "applies '\(first)' to values of type \(typeName)", entity: info.name,
                objectID: objectID)
        }
    }

    /// A value of key-value coding as a set element: every attribute and object value is
    /// hashable; anything else is kept by its description.
    private static func hashable(_ value: Any) -> AnyHashable {
        (value as? AnyHashable) ?? AnyHashable(String(describing: value))
    }
}

/// The arithmetic of the key-path collection operators.
private enum KeyPathAggregate {
    enum Outcome {
        case value(Any?)
        case cannotCombine(String)
    }

    enum Number {
        case integer(Int64)
        case real(Double)
        case decimal(Decimal)

        init?(_ value: Any) {
            switch value {
            case let number as Int16: self = .integer(Int64(number))
            case let number as Int32: self = .integer(Int64(number))
            case let number as Int64: self = .integer(number)
            case let number as Int: self = .integer(Int64(number))
            case let number as Float: self = .real(Double(number))
            case let number as Double: self = .real(number)
            case let number as Decimal: self = .decimal(number)
            default: return nil
            }
        }

        var double: Double {
            switch self {
            case .integer(let number): Double(number)
            case .real(let number): number
            case .decimal(let number): NSDecimalNumber(decimal: number).doubleValue
            }
        }

        var isDecimal: Bool {
            if case .decimal = self { true } else { false }
        }

        /// The number as a `Decimal`; only for finite numbers (`Decimal` holds no infinity).
        var decimal: Decimal {
            switch self {
            case .integer(let number): Decimal(number)
            case .real(let number): Decimal(number)
            case .decimal(let number): number
            }
        }
    }

    /// `@sum` or `@avg` of the values, as a fetch predicate computes them
    /// (``PredicateAggregation``): integers sum to an `Int64` (a `Double` past its range), any
    /// `Double` makes the result a `Double`, any `Decimal` a `Decimal`; the average of nothing is
    /// `nil`.
    static func sumOrAverage(_ function: PredicateExpression.CollectionFunction, _ values: [Any]) -> Outcome {
        var stored: [StoreValue] = []
        stored.reserveCapacity(values.count)
        for value in values {
            switch Number(value) {
            case .integer(let number): stored.append(.int(number))
            case .real(let number): stored.append(.double(number))
            case .decimal(let number): stored.append(.decimal(number))
            case nil: return .cannotCombine("\(type(of: value))")
            }
        }
        switch PredicateAggregation.apply(function, to: stored) {
        case .int(let number): return .value(number)
        case .double(let number): return .value(number)
        case .decimal(let number): return .value(number)
        default: return .value(nil)
        }
    }

    /// The smallest or largest of numbers, strings or dates; the value itself is returned.
    static func extreme(_ values: [Any], smallest: Bool) -> Outcome {
        guard let first = values.first else { return .value(nil) }
        let isBefore: (Any, Any) -> Bool?
        switch first {
        case is String: isBefore = { (a, b) in (a as? String).flatMap { a in (b as? String).map { a < $0 } } }
        case is Date: isBefore = { (a, b) in (a as? Date).flatMap { a in (b as? Date).map { a < $0 } } }
        default:
            guard Number(first) != nil else { return .cannotCombine("\(type(of: first))") }
            isBefore = { (a, b) in
                guard let a = Number(a), let b = Number(b) else { return nil }
                // A decimal compares exactly, unless a side is an infinity or NaN, which a
                // `Decimal` made from a `Double` cannot hold.
                let exact = (a.isDecimal || b.isDecimal) && a.double.isFinite && b.double.isFinite
                if exact { return a.decimal < b.decimal }
                return a.double < b.double
            }
        }
        var best = first
        for value in values.dropFirst() {
            guard let before = isBefore(value, best) else { return .cannotCombine("\(type(of: value))") }
            if smallest ? before : (isBefore(best, value) ?? false) { best = value }
        }
        return .value(best)
    }
}
