/// Runs a plan's stages on a store's data in memory, from the version the data was written with
/// to the last one.
struct StagedMigration: Sendable {
    let versions: [ManagedObjectModel]
    let stages: [MigrationStage]

    /// The options that make a store migrate through this plan.
    func options(from base: MigrationOptions) -> MigrationOptions {
        var options = base
        options.stagedMigration = { source, model, options in try run(source, to: model, options: options) }
        return options
    }

    /// `source` (data of the stored schema) migrated through every stage after its version.
    ///
    /// - Throws: `PersistenceError.Code.modelMismatch` when the stored schema is none of the
    ///   versions, when a stage's inferred change cannot be made, or when a custom stage throws
    ///   (its error is the `underlying` one).
    func run(_ source: StoreSnapshot, to model: ManagedObjectModel, options: MigrationOptions) throws -> StoreSnapshot {
        guard
            var position = versions.lastIndex(where: { StoreSchema.isSame(source.model.entities, as: $0.entities) })
        else { throw PersistenceError.unknownSourceVersion(versions: versions.count) }
        var snapshot = try source.rebound(to: versions[position])
        let stageCount = versions.count - 1 - position
        var stageNumber = 0
        while position < versions.count - 1 {
            let version = versions[position]
            let stage = stages.first { StoreSchema.isSame($0.from.entities, as: version.entities) }
            let next =
                stage.flatMap { stage in
                    versions.indices.last { StoreSchema.isSame(versions[$0].entities, as: stage.to.entities) }
                } ?? position + 1
            guard next > position else { throw PersistenceError.unknownSourceVersion(versions: versions.count) }
            var stageOptions = options
            let reportedStage = min(stageNumber, max(stageCount - 1, 0))
            if let progress = options.progress {
                let stages = max(stageCount, 1)
                stageOptions.progress = { @Sendable report in
                    var report = report
                    report.stage = reportedStage
                    report.stageCount = stages
                    progress(report)
                }
            }
            switch stage {
            case .custom(_, _, let willMigrate, let didMigrate)?:
                if let willMigrate { snapshot = try Self.transform(snapshot, version, stageNumber, willMigrate) }
                snapshot = try StoreMigrator.inferred(snapshot, to: versions[next], options: stageOptions)
                if let didMigrate { snapshot = try Self.transform(snapshot, versions[next], stageNumber, didMigrate) }
            default:
                snapshot = try StoreMigrator.inferred(snapshot, to: versions[next], options: stageOptions)
            }
            position = next
            stageNumber += 1
        }
        return try snapshot.rebound(to: model)
    }

    /// `snapshot` after `body` ran on a context over it (with `model`'s classes) and saved.
    private static func transform(
        _ snapshot: StoreSnapshot, _ model: ManagedObjectModel, _ stage: Int,
        _ body: (ManagedContext) throws -> Void
    ) throws -> StoreSnapshot {
        do {
            let container = try PersistentContainer(
                model: model, store: InMemoryStore(snapshot: try snapshot.rebound(to: model)))
            let context = container.newContext()
            try body(context)
            if context.hasChanges { try context.save() }
            return container.committedSnapshot()
        } catch {
            throw PersistenceError.migrationStageFailed(stage, underlying: error)
        }
    }
}
