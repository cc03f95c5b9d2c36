extension FetchIndexDescription {
    /// Creates an index over the `@Attribute` properties that `keyPaths` read, most significant
    /// first, named `name` (by default the properties' names joined by underscores).
    ///
    /// The properties are found as for ``FetchSortDescriptor/init(_:order:comparison:)``: each
    /// key path must read one stored property directly. One that reads none, or several, makes
    /// the model refuse the entity with `PersistenceError.Code.invalidModel`, naming the key path.
    ///
    /// For example:
    /// ```swift
    /// final class Fruit: ManagedObject {
    ///     @Attribute var category = ""
    ///     @Attribute var price = 0.0
    ///     override class var indexes: [FetchIndexDescription] {
    ///         [FetchIndexDescription([\Fruit.category, \Fruit.price])]
    ///     }
    /// }
    /// ```
    ///
    /// SwiftData: `#Index<Fruit>([\.category, \.price])`; Core Data: `NSFetchIndexDescription`.
    public init<Object: ManagedObject>(_ keyPaths: [PartialKeyPath<Object>], name: String? = nil) {
        var names: [String] = []
        var problem: String?
        for keyPath in keyPaths {
            switch Object.propertyName(readBy: keyPath) {
            case .success(let property): names.append(property)
            case .failure(let failure):
                names.append("\(keyPath)")
                problem = problem ?? "the key path \(keyPath) reads no single stored property (\(failure.reason))"
            }
        }
        self.init(name: name ?? names.joined(separator: "_"), propertyNames: names)
        self.problem = problem
    }
}
