/// A dictionary of `Codable` values is a `codable` attribute, stored as its JSON encoding (with
/// sorted keys, so equal dictionaries store equal bytes). For a dictionary keyed by `String` or
/// `Int`, stored as a JSON object, predicates see its values: `ANY scores > 10`.
extension Dictionary: AttributeValue where Key: Codable, Value: Codable {}
