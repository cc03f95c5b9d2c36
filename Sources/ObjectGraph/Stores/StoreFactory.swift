/// What makes the store of a custom ``StoreDescription``; equal by its identity, since closures
/// cannot be compared.
struct StoreFactory: Sendable, Hashable {
    /// How the description prints.
    var name: String
    /// What tells two custom stores apart.
    var identity: String
    var make: @Sendable (StoreDescription) -> any PersistentStore

    static func == (lhs: Self, rhs: Self) -> Bool { lhs.identity == rhs.identity }
    func hash(into hasher: inout Hasher) { hasher.combine(identity) }
}
