import Foundation

extension SortDescriptor {
    /// Creates a sort descriptor for a typed property of a `ManagedObject` subclass.
    ///
    /// The key path must name an `@Attribute` property of `Object` itself, or its `objectID`
    /// (`\Fruit.objectID`, the usual tie-breaker: objects in the order they were inserted); for
    /// key paths through relationships use ``init(key:ascending:comparison:)`` with a dotted key
    /// such as `"basket.label"` or `"basket.objectID"`.
    ///
    /// For example:
    /// ```swift
    /// request.sortDescriptors = [SortDescriptor(\Fruit.price, order: .reverse)]
    /// ```
    ///
    /// In a file that also imports Foundation, Foundation's `SortDescriptor<Root>(_:order:)`
    /// matches the same call: write it where a `[SortDescriptor]` is expected (as above), or
    /// qualify it as `ObjectGraph.SortDescriptor(\Fruit.price)`.
    ///
    /// The property is found by reading the key path on a throwaway instance and seeing which
    /// property's storage it touched, so the key path must read one stored property directly. A
    /// computed property that reads exactly one attribute is indistinguishable from it (and sorts
    /// by that attribute). A key path that reads no `@Attribute` or `@Relationship`
    /// property, or several, or a class with a required attribute of a type that has no value
    /// to probe with (a non-`CaseIterable` enum or a `Codable` struct without a default), is a
    /// programming error and stops the program with a message.
    ///
    /// Core Data: `NSSortDescriptor(keyPath:ascending:)`; Foundation:
    /// `SortDescriptor(_:order:)`.
    public init<Object: ManagedObject, Value>(
        _ keyPath: KeyPath<Object, Value>, order: SortOrder = .forward, comparison: Comparison = .caseSensitive
    ) {
        switch Object.sortKey(readBy: keyPath) {
        case .success(let name):
            self.init(key: name, ascending: order == .forward, comparison: comparison)
        case .failure(let problem):
            preconditionFailure(
                "SortDescriptor(\\\(Object.self).…) cannot find the property the key path reads: \(problem.reason). "
                    + "Use SortDescriptor(key:ascending:comparison:) with the property's name.")
        }
    }
}
