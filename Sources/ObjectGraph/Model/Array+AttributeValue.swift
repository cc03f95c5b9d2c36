/// An array of `Codable` values is a `codable` attribute, stored as its JSON encoding (as in
/// SwiftData, `@Attribute var tags: [String] = []` needs no wrapper type). Predicates see its
/// elements: `ANY tags == 'x'`, `tags CONTAINS 'x'`, `'x' IN tags`, `tags.@count > 2`.
extension Array: AttributeValue where Element: Codable {}
