/// A store that can migrate its data when it opens with a changed model, with options given
/// per open: the container passes its staged plan this way.
protocol SchemaMigratingStore: PersistentStore {
    /// The options the store was created with.
    var migration: MigrationOptions { get }

    /// ``PersistentStore/load(model:)`` with `migration` in place of the store's own options.
    func load(model: ManagedObjectModel, migration: MigrationOptions) throws -> StoreSnapshot
}
