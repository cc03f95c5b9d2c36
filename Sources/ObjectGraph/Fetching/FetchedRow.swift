/// One result of a dictionary fetch: the fetched properties of one object, as values, with the
/// object's ID. No object is created or registered for it.
///
/// Values are ``StoreValue``s, so a row is `Sendable` and `Hashable` and can cross isolation
/// domains (Core Data's `[String: Any]` dictionaries cannot): attributes in their stored form,
/// a to-one relationship as ``StoreValue/object(_:)`` of the destination's ID (or
/// ``StoreValue/null``). A fetched property whose value is `nil` is present as
/// ``StoreValue/null``, so that a missing key always means "not fetched".
///
/// For example:
/// ```swift
/// var request = Fruit.fetchRequest()
/// request.propertiesToFetch = ["name", "basket"]
/// for row in try context.fetchRows(request) {
///     print(row.value(forKey: "name", as: String.self) ?? "-", row["basket"] ?? .null)
/// }
/// ```
///
/// Core Data: an `NSDictionary` of a fetch with `resultType = .dictionaryResultType`.
public struct FetchedRow: Sendable, Hashable, CustomStringConvertible {
    /// The object the values are from.
    public let objectID: ObjectID
    /// The fetched properties by key path (as named in `propertiesToFetch`).
    public let values: [String: StoreValue]

    /// A row of `values` for the object `objectID`.
    public init(objectID: ObjectID, values: [String: StoreValue]) {
        self.objectID = objectID
        self.values = values
    }

    /// The stored value of a fetched property; `nil` if the key was not fetched.
    public subscript(key: String) -> StoreValue? { values[key] }

    /// The value of a fetched property as a Swift type; `nil` if the key was not fetched, its value
    /// is `nil`, or it does not convert to `type`.
    ///
    /// For example: `row.value(forKey: "price", as: Int64.self)`.
    public func value<Value: AttributeValue>(forKey key: String, as type: Value.Type = Value.self) -> Value? {
        guard let stored = values[key], !stored.isNull else { return nil }
        return Value(storeValue: stored)
    }

    /// A readable description, for logs and debugging.
    public var description: String {
        let fields = values.keys.sorted().map { "\($0): \(values[$0]!)" }
        return "\(objectID) {\(fields.joined(separator: ", "))}"
    }
}
