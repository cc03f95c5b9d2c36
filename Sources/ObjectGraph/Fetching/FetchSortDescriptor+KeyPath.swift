import Foundation

extension FetchSortDescriptor {
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
    /// matches the same call: write it where a `[FetchSortDescriptor]` is expected (as above), or
    /// spell it `FetchSortDescriptor(\Fruit.price)`.
    ///
    /// The property is found by reading the key path on a throwaway instance and seeing which
    /// property's storage it touched, so the key path must read one stored property directly. A
    /// computed property that reads exactly one attribute is indistinguishable from it (and sorts
    /// by that attribute). A key path that reads no `@Attribute` or `@Relationship`
    /// property, or several (such as one through a relationship), or a class with a required
    /// attribute of a type that has no value to probe with (a non-`CaseIterable` enum or a
    /// `Codable` struct without a default), makes a descriptor that a fetch refuses with
    /// `PersistenceError.Code.invalidFetchRequest`, naming the key path and the reason.
    ///
    /// Core Data: `NSSortDescriptor(keyPath:ascending:)`; Foundation:
    /// `SortDescriptor(_:order:)`.
    public init<Object: ManagedObject, Value>(
        _ keyPath: KeyPath<Object, Value>, order: SortOrder = .forward, comparison: Comparison = .caseSensitive
    ) {
        self.init(keyPath as PartialKeyPath<Object>, order: order, comparison: comparison)
    }

    /// A descriptor for the property `keyPath` reads, or one that records why it names none.
    init<Object: ManagedObject>(_ keyPath: PartialKeyPath<Object>, order: SortOrder, comparison: Comparison) {
        switch Object.sortKey(readBy: keyPath) {
        case .success(let name):
            self.init(key: name, ascending: order == .forward, comparison: comparison)
        case .failure(let problem):
            self.init(key: "\(keyPath)", ascending: order == .forward, comparison: comparison)
            keyPathProblem =
                "the key path reads no single stored property of \(Object.self) (\(problem.reason)); "
                + "sort with FetchSortDescriptor(key:ascending:comparison:) and the property's name "
                + "or a dotted key path such as 'basket.label'"
        }
    }
}
