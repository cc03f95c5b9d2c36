/// A position in a store's persistent history: pass it to `fetchHistory(after:)` to read only
/// the transactions saved since.
///
/// Tokens of one store increase with each save; compare them with `<`.
///
/// Core Data: `NSPersistentHistoryToken`.
public struct PersistentHistoryToken: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// The transaction's number in its store's history.
    public let value: Int64

    /// A token for transaction number `value`.
    public init(value: Int64) { self.value = value }

    /// Whether `lhs` comes from an earlier transaction than `rhs`.
    public static func < (lhs: PersistentHistoryToken, rhs: PersistentHistoryToken) -> Bool { lhs.value < rhs.value }

    /// A readable description, for logs and debugging.
    public var description: String { "history token \(value)" }
}
