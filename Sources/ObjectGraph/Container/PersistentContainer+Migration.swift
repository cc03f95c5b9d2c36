extension PersistentContainer {
    /// Opens `store`, migrating its data as `migration` says in place of the store's own options.
    ///
    /// - Throws: as ``init(model:store:)``; `PersistenceError.Code.modelMismatch` naming the
    ///   entity and property when the data cannot be migrated (the store is left as it was).
    public convenience init(model: ManagedObjectModel, store: any PersistentStore, migration: MigrationOptions)
        throws
    {
        try self.init(model: model, store: store, migrating: migration)
    }

    /// Opens `store` with the last version of `plan`, migrating data written with an earlier
    /// version through the plan's stages.
    ///
    /// For example:
    /// ```swift
    /// let container = try PersistentContainer(migrationPlan: NotesMigrationPlan.self, store: store)
    /// ```
    ///
    /// - Throws: as ``init(model:store:migration:)``, and `.modelMismatch` when the store's
    ///   schema is none of the plan's versions or a custom stage throws.
    public convenience init<Plan: SchemaMigrationPlan>(
        migrationPlan plan: Plan.Type, store: any PersistentStore, migration: MigrationOptions? = nil
    ) throws {
        try self.init(modelVersions: try plan.versions, stages: try plan.stages, store: store, migration: migration)
    }

    /// Creates the store a description names and opens it with the last version of `plan`
    /// (with the description's migration options).
    ///
    /// - Throws: as ``init(migrationPlan:store:migration:)``.
    public convenience init<Plan: SchemaMigrationPlan>(
        migrationPlan plan: Plan.Type, storeDescription: StoreDescription
    )
        throws
    {
        try self.init(
            modelVersions: try plan.versions, stages: try plan.stages, store: storeDescription.makeStore(),
            migration: storeDescription.migration)
    }

    /// Opens `store` with the last of `modelVersions` (oldest first), migrating data written
    /// with an earlier version through each later one in turn, inferred: Core Data's model
    /// versions.
    ///
    /// - Throws: as ``init(migrationPlan:store:migration:)``; `.invalidModel` for an empty list.
    public convenience init(
        modelVersions: [ManagedObjectModel], store: any PersistentStore, migration: MigrationOptions? = nil
    ) throws {
        try self.init(modelVersions: modelVersions, stages: [], store: store, migration: migration)
    }

    /// Creates the store a description names and opens it with the last of `modelVersions`.
    ///
    /// - Throws: as ``init(modelVersions:store:migration:)``.
    public convenience init(modelVersions: [ManagedObjectModel], storeDescription: StoreDescription) throws {
        try self.init(
            modelVersions: modelVersions, stages: [], store: storeDescription.makeStore(),
            migration: storeDescription.migration)
    }

    private convenience init(
        modelVersions: [ManagedObjectModel], stages: [MigrationStage], store: any PersistentStore,
        migration: MigrationOptions?
    ) throws {
        guard let model = modelVersions.last else {
            throw PersistenceError.invalidModel("A migration plan needs at least one model version.")
        }
        let base = migration ?? (store as? any SchemaMigratingStore)?.migration ?? .automatic
        let staged = StagedMigration(versions: modelVersions, stages: stages)
        try self.init(model: model, store: store, migrating: staged.options(from: base))
    }
}
