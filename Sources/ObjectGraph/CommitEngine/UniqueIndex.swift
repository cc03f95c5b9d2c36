/// One uniqueness constraint's index: the constrained values of every object, to its key.
/// Objects with a `nil` among the constrained values never conflict.
struct UniqueIndex: Sendable {
    let slots: [Int]
    var keys: [[StoreValue]: Int64] = [:]

    func tuple(_ values: [StoreValue]) -> [StoreValue]? {
        let tuple = slots.map { values[$0] }
        return tuple.contains(.null) ? nil : tuple
    }

    /// The key of another object holding the same constrained values as `values`.
    func other(than key: Int64, with values: [StoreValue]) -> Int64? {
        guard let tuple = tuple(values), let found = keys[tuple], found != key else { return nil }
        return found
    }

    mutating func remove(_ key: Int64, values: [StoreValue]) {
        if let tuple = tuple(values), keys[tuple] == key { keys[tuple] = nil }
    }

    mutating func add(_ key: Int64, values: [StoreValue]) {
        if let tuple = tuple(values) { keys[tuple] = key }
    }
}
