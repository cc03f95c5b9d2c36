/// One change a migration makes to a store's schema, and how many stored objects it touches.
///
/// For example, in a dry run:
/// ```swift
/// for change in try SchemaMigration.preview(of: snapshot, to: model) {
///     print(change)  // attribute 'Fruit.color' added (3 objects)
/// }
/// ```
///
/// Core Data: the entity and property mappings of an inferred `NSMappingModel`.
public struct SchemaChange: Sendable, Hashable, CustomStringConvertible {
    /// The entity the change is about, by its name in the new model (the old one when removed).
    public var entityName: String
    /// The attribute or relationship the change is about, if any.
    public var propertyName: String?
    /// What the change is, in words: "added", "renamed from 'colour'", "widened from integer16".
    public var summary: String
    /// The number of stored objects the change touches (0 until counted against data).
    public var objectCount: Int

    /// Creates a change.
    public init(entityName: String, propertyName: String?, summary: String, objectCount: Int = 0) {
        self.entityName = entityName
        self.propertyName = propertyName
        self.summary = summary
        self.objectCount = objectCount
    }

    /// A readable description, for logs and debugging.
    public var description: String {
        let subject = propertyName.map { "property '\(entityName).\($0)'" } ?? "entity '\(entityName)'"
        return "\(subject) \(summary) (\(objectCount) object\(objectCount == 1 ? "" : "s"))"
    }
}
