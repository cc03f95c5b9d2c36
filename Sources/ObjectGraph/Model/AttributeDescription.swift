/// One attribute of an entity: its name, type, optionality and default.
///
/// For example:
/// ```swift
/// AttributeDescription(name: "email", type: .string, isOptional: false, isIndexed: true)
/// AttributeDescription(name: "price", type: .integer64, defaultValue: 0)
/// ```
///
/// Core Data: `NSAttributeDescription`.
public struct AttributeDescription: Sendable, Hashable {
    /// The key used with `value(forKey:)`, predicates and sort descriptors.
    public var name: String
    /// The storage type.
    public var type: AttributeType
    /// Whether the attribute may be `nil` at save.
    public var isOptional: Bool
    /// The value a newly inserted object starts with (``StoreValue/null`` for none).
    public var defaultValue: StoreValue
    /// Whether fetches on this attribute use an index.
    public var isIndexed: Bool
    /// The attribute's name in an earlier model version, for migration.
    public var renamingIdentifier: String?
    /// The rules a value must meet at save.
    public var validation: AttributeValidation

    /// Creates an attribute description.
    public init(
        name: String,
        type: AttributeType,
        isOptional: Bool = false,
        defaultValue: StoreValue = .null,
        isIndexed: Bool = false,
        renamingIdentifier: String? = nil,
        validation: AttributeValidation = AttributeValidation()
    ) {
        self.name = name
        self.type = type
        self.isOptional = isOptional
        self.defaultValue = type.normalized(defaultValue)
        self.isIndexed = isIndexed
        self.renamingIdentifier = renamingIdentifier
        self.validation = AttributeValidation(
            minimum: validation.minimum.map(type.normalized), maximum: validation.maximum.map(type.normalized),
            length: validation.length, pattern: validation.pattern)
    }
}
