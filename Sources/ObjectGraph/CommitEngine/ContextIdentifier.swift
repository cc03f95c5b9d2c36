/// Tells contexts apart in save notifications: unique among one container's contexts.
///
/// Spelled ``ManagedContext/Identifier`` where a context is at hand.
public struct ContextIdentifier: Sendable, Hashable, CustomStringConvertible {
    let number: Int
    /// The context's name when it was created, for debugging.
    public let name: String?

    /// A readable description, for logs and debugging.
    public var description: String { name.map { "\($0) (#\(number))" } ?? "context #\(number)" }

    /// Whether the two are equal.
    public static func == (lhs: ContextIdentifier, rhs: ContextIdentifier) -> Bool { lhs.number == rhs.number }
    /// Hashes the components that `==` compares.
    public func hash(into hasher: inout Hasher) { hasher.combine(number) }
}
