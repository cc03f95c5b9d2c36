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

extension PredicateGetter {
    /// The operand's value; for a collection, `nil`.
    func scalar(in scope: PredicateScope, resolver: PredicateResolver) -> StoreValue {
        switch self {
        case .slot(let slot): return scope.values[slot]
        case .path(let root, let path) where !path.isCollection:
            guard let values = root.values(in: scope, resolver: resolver) else { return .null }
            return path.scalar(from: values, resolver: resolver)
        default:
            guard case .one(let value) = evaluate(in: scope, resolver: resolver) else { return .null }
            return value
        }
    }

    func evaluate(in scope: PredicateScope, resolver: PredicateResolver) -> PredicateResult {
        switch self {
        case .slot(let slot): return .one(scope.values[slot])
        case .path(let root, let path):
            guard let values = root.values(in: scope, resolver: resolver) else {
                return path.isCollection ? .many([]) : .one(.null)
            }
            guard path.isCollection else { return .one(path.scalar(from: values, resolver: resolver)) }
            var elements: [StoreValue] = []
            path.collect(from: values, hop: 0, resolver: resolver, into: &elements)
            return .many(elements)
        case .relationshipCount(let root, let path):
            guard let values = root.values(in: scope, resolver: resolver),
                case .objects(let ids) = path.scalar(from: values, resolver: resolver)
            else { return .one(.int(0)) }
            return .one(.int(Int64(ids.reduce(0) { $0 + (resolver.resolve($1) == nil ? 0 : 1) })))
        case .evaluatedObject: return .one(scope.objectID.map { .object($0) } ?? .null)
        case .variable(let index): return .one(.object(scope.variables[index]))
        case .constant(let value): return .one(value)
        case .list(let getters): return .many(getters.map { $0.scalar(in: scope, resolver: resolver) })
        case .collection(let base, let function, let path):
            let elements = base.evaluate(in: scope, resolver: resolver).elements
            guard function != .count else { return .one(.int(Int64(elements.count))) }
            guard let path else { return .one(PredicateAggregation.apply(function, to: elements)) }
            var values: [StoreValue] = []
            for element in elements {
                guard case .object(let id) = element, let object = resolver.resolve(id) else { continue }
                if path.isCollection {
                    path.collect(from: object, hop: 0, resolver: resolver, into: &values)
                } else {
                    values.append(path.scalar(from: object, resolver: resolver))
                }
            }
            return .one(PredicateAggregation.apply(function, to: values))
        case .subquery(let base, let predicate):
            var kept: [StoreValue] = []
            for element in base.evaluate(in: scope, resolver: resolver).elements {
                guard case .object(let id) = element else { continue }
                var inner = scope
                inner.variables.append(id)
                if predicate.evaluate(in: inner, resolver: resolver) { kept.append(element) }
            }
            return .many(kept)
        case .function, .conditional, .index, .length, .member:
            return evaluateComputed(in: scope, resolver: resolver)
        }
    }
}

extension PredicateGetter.PathRoot {
    func values(in scope: PredicateScope, resolver: PredicateResolver) -> [StoreValue]? {
        switch self {
        case .object: scope.values
        case .variable(let index): resolver.resolve(scope.variables[index])
        }
    }
}

extension CompiledPath {
    /// The value at the end of a path of to-one hops; null if a hop is empty or missing.
    func scalar(from values: [StoreValue], resolver: PredicateResolver) -> StoreValue {
        var current = values
        for hop in hops {
            guard case .object(let id) = current[hop.slot], let next = resolver.resolve(id) else { return .null }
            current = next
        }
        return current[last]
    }

    /// Every value at the end of the path, through to-many hops; objects that no longer exist
    /// are left out.
    func collect(
        from values: [StoreValue], hop: Int, resolver: PredicateResolver, into result: inout [StoreValue]
    ) {
        guard hop < hops.count else {
            let value = values[last]
            guard lastIsToMany else {
                result.append(value)
                return
            }
            if case .objects(let ids) = value {
                for id in ids where resolver.resolve(id) != nil { result.append(.object(id)) }
            }
            return
        }
        switch values[hops[hop].slot] {
        case .object(let id):
            if let next = resolver.resolve(id) { collect(from: next, hop: hop + 1, resolver: resolver, into: &result) }
        case .objects(let ids):
            for id in ids {
                if let next = resolver.resolve(id) {
                    collect(from: next, hop: hop + 1, resolver: resolver, into: &result)
                }
            }
        default: break
        }
    }
}

extension DynamicComparison {
    func evaluate(in scope: PredicateScope, resolver: PredicateResolver) -> Bool {
        let right = rhs.evaluate(in: scope, resolver: resolver)
        if isMembership {
            let element = lhs.scalar(in: scope, resolver: resolver)
            return right.elements.contains { PredicateOrdering.equal(element, $0, options: options) }
        }
        switch quantifier {
        case nil: return test(lhs.scalar(in: scope, resolver: resolver), against: right)
        case .any: return lhs.evaluate(in: scope, resolver: resolver).elements.contains { test($0, against: right) }
        case .all: return lhs.evaluate(in: scope, resolver: resolver).elements.allSatisfy { test($0, against: right) }
        }
    }

    private func test(_ value: StoreValue, against right: PredicateResult) -> Bool {
        switch (op, right) {
        case (.between, .many(let bounds)):
            guard bounds.count == 2, let low = PredicateOrdering.order(value, bounds[0], options: options),
                let high = PredicateOrdering.order(value, bounds[1], options: options)
            else { return false }
            return low >= 0 && high <= 0
        case (.in, .many(let elements)):
            return elements.contains { PredicateOrdering.equal(value, $0, options: options) }
        case (.in, .one(.string(let text))):
            guard case .string(let element) = value else { return false }
            return PreparedString(element, options: options).matches(text, .substring)
        case (_, .one(let other)):
            if let relation = PredicateRelation(op) {
                if value.isNull || other.isNull {
                    switch relation {
                    case .equal: return value.isNull && other.isNull
                    case .notEqual: return value.isNull != other.isNull
                    default: return false
                    }
                }
                switch relation {
                case .equal: return PredicateOrdering.equal(value, other, options: options)
                case .notEqual: return !PredicateOrdering.equal(value, other, options: options)
                default: return relation.holds(PredicateOrdering.order(value, other, options: options))
                }
            }
            guard case .string(let text) = value, case .string(let pattern) = other else { return false }
            switch op {
            case .contains: return PreparedString(pattern, options: options).matches(text, .substring)
            case .beginsWith: return PreparedString(pattern, options: options).matches(text, .prefix)
            case .endsWith: return PreparedString(pattern, options: options).matches(text, .suffix)
            case .like: return LikePattern(pattern, options: options).matches(text)
            case .matches: return (try? PredicateRegex(pattern, options: options))?.matches(text) ?? false
            default: return false
            }
        default:
            return false
        }
    }
}

/// Comparisons of two stored values of any kinds, for comparisons computed per object.
enum PredicateOrdering {
    static func equal(_ lhs: StoreValue, _ rhs: StoreValue, options: PredicateExpression.Options) -> Bool {
        if lhs.isNull || rhs.isNull { return lhs.isNull && rhs.isNull }
        return PreparedConstant(rhs, options: options).equals(lhs)
    }

    static func order(_ lhs: StoreValue, _ rhs: StoreValue, options: PredicateExpression.Options) -> Int? {
        PreparedConstant(rhs, options: options).order(lhs)
    }
}

/// The collection operators `@sum`, `@avg`, `@min` and `@max` (nulls are skipped).
enum PredicateAggregation {
    static func apply(_ function: PredicateExpression.CollectionFunction, to values: [StoreValue]) -> StoreValue {
        switch function {
        case .count: return .int(Int64(values.count))
        case .sum, .avg: return sumOrAverage(values, average: function == .avg)
        case .min, .max:
            let wanted = function == .min ? -1 : 1
            var best: StoreValue?
            for value in values where !value.isNull {
                if let current = best, PredicateOrdering.order(value, current, options: []) != wanted { continue }
                best = value
            }
            return best ?? .null
        }
    }

    private static func sumOrAverage(_ values: [StoreValue], average: Bool) -> StoreValue {
        var count = 0
        var integerSum: Int64 = 0
        var overflowed = false
        var doubleSum = 0.0
        var hasDouble = false
        var hasDecimal = false
        for value in values {
            guard let number = PredicateNumber(value) else { continue }
            count += 1
            switch number {
            case .int(let integer):
                let (sum, overflow) = integerSum.addingReportingOverflow(integer)
                integerSum = sum
                overflowed = overflowed || overflow
                doubleSum += Double(integer)
            case .double(let double):
                hasDouble = true
                doubleSum += double
            case .decimal:
                hasDecimal = true
            }
        }
        guard count > 0 else { return average ? .null : .int(0) }
        if hasDecimal {
            var sum = Decimal(0)
            for value in values {
                switch PredicateNumber(value) {
                case .int(let integer): sum += Decimal(integer)
                case .double(let double):
                    // Decimal cannot hold an infinity or NaN (its initializer traps): the sum is
                    // then that double.
                    guard double.isFinite else { return .double(double) }
                    sum += Decimal(double)
                case .decimal(let decimal): sum += decimal
                case nil: continue
                }
            }
            return .decimal(average ? sum / Decimal(count) : sum)
        }
        if average { return .double(doubleSum / Double(count)) }
        return hasDouble || overflowed ? .double(doubleSum) : .int(integerSum)
    }
}
