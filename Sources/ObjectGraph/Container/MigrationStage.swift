/// One step of a ``SchemaMigrationPlan``: from one model version to another, inferred or with
/// code that transforms the data.
///
/// A custom stage's `willMigrate` gets a context on the old version's model (with its data)
/// before the inferred change to the new version runs, and `didMigrate` one on the new version's
/// model after it: split a name, fill a new required value, remove duplicates before a new
/// uniqueness constraint. Changes are saved when the closure returns; a closure that throws
/// stops the migration and leaves the store as it was.
///
/// Core Data: a mapping model with custom entity migration policies; SwiftData: `MigrationStage`.
public enum MigrationStage: Sendable {
    /// The change from `from` to `to` is inferred.
    case lightweight(from: ManagedObjectModel, to: ManagedObjectModel)
    /// Runs `willMigrate` on the old data, infers the change, then runs `didMigrate` on the new
    /// data.
    case custom(
        from: ManagedObjectModel, to: ManagedObjectModel,
        willMigrate: (@Sendable (ManagedContext) throws -> Void)?,
        didMigrate: (@Sendable (ManagedContext) throws -> Void)?)

    /// The version the stage migrates from.
    public var from: ManagedObjectModel {
        switch self {
        case .lightweight(let from, _), .custom(let from, _, _, _): from
        }
    }

    /// The version the stage migrates to.
    public var to: ManagedObjectModel {
        switch self {
        case .lightweight(_, let to), .custom(_, let to, _, _): to
        }
    }
}
