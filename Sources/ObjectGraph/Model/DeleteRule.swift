/// What happens to a relationship's destination when its source object is deleted.
///
/// Core Data: `NSDeleteRule`.
public enum DeleteRule: String, Sendable, Hashable, Codable, CaseIterable {
    /// Remove the deleted object from the destination's inverse relationship.
    case nullify
    /// Delete the destination objects too.
    case cascade
    /// Refuse to delete the object while the relationship has a destination.
    case deny
    /// Do nothing; keeping the inverse consistent is the caller's responsibility.
    case noAction
}
