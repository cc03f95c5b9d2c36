/// One result of ``ManagedContext/fetchDictionaries(_:)``: the values of a group's (or an
/// object's) fetched properties and aggregates by name, with no object behind it.
///
/// Values are ``StoreValue``s, so a dictionary is `Sendable` and `Hashable`. A key with a nil
/// value is present as ``StoreValue/null``; a missing key was not fetched.
///
/// Core Data: an `NSDictionary` of a fetch with `resultType = .dictionaryResultType`.
public struct FetchedDictionary: Sendable, Hashable, CustomStringConvertible {
    /// The values by property key or expression name.
    public let values: [String: StoreValue]

    /// A dictionary of `values`.
    public init(values: [String: StoreValue]) {
        self.values = values
    }

    /// The value under `key`; `nil` if the key was not fetched.
    public subscript(key: String) -> StoreValue? { values[key] }

    /// The value under `key` as a Swift type; `nil` if the key was not fetched, its value is
    /// `nil`, or it does not convert to `type`.
    ///
    /// For example: `row.value(forKey: "total", as: Int64.self)`.
    public func value<Value: AttributeValue>(forKey key: String, as type: Value.Type = Value.self) -> Value? {
        guard let stored = values[key], !stored.isNull else { return nil }
        return Value(storeValue: stored)
    }

    /// A readable description, for logs and debugging.
    public var description: String {
        "{\(values.keys.sorted().map { "\($0): \(values[$0]!)" }.joined(separator: ", "))}"
    }
}
