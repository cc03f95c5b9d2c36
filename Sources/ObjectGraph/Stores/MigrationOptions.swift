import Foundation

/// What a store does when it is opened with a model other than the one its data was written with.
///
/// The default migrates automatically: the schema stored in the file is the source model, the
/// changes are inferred (Docs/Migration.md lists what can be), the migrated data is written beside
/// the old file and swapped in atomically, and a migration that cannot be done throws, leaving the
/// file as it was.
///
/// For example:
/// ```swift
/// var description = StoreDescription.jsonFile(url)
/// description.migration.keepsBackup = true
/// description.migration.progress = { progress in print(progress.fractionCompleted) }
/// ```
///
/// Core Data: `NSMigratePersistentStoresAutomaticallyOption` and `NSInferMappingModelAutomaticallyOption`.
public struct MigrationOptions: Sendable, Hashable {
    /// How a changed model is handled.
    public enum Mode: String, Sendable, Hashable {
        /// Migrate the data to the model (inferred, or through the container's staged plan).
        case automatic
        /// Refuse: opening throws `PersistenceError.Code.modelMismatch`, as a store did before
        /// migrations existed.
        case disabled
        /// Throw the data away and start empty when the schema changed. For development only:
        /// every object is lost. GRDB: `eraseDatabaseOnSchemaChange`.
        case eraseOnSchemaChange
    }

    /// How a changed model is handled; ``Mode/automatic`` by default.
    public var mode: Mode
    /// Whether the old file is kept beside the store, named as ``backupURL(for:)`` says, when a
    /// migration (or an erase) replaces it. `false` by default.
    public var keepsBackup: Bool
    /// Called as a migration advances (on the opening thread), and once when it is done.
    /// Not part of equality.
    public var progress: (@Sendable (MigrationProgress) -> Void)?
    /// How the container's staged plan migrates a snapshot, when it has one (set by the
    /// container; not part of equality).
    var stagedMigration: (@Sendable (StoreSnapshot, ManagedObjectModel, MigrationOptions) throws -> StoreSnapshot)?

    /// Options with the given mode, without a backup or progress reports.
    public init(mode: Mode = .automatic, keepsBackup: Bool = false) {
        self.mode = mode
        self.keepsBackup = keepsBackup
    }

    /// Migrate automatically (the default).
    public static let automatic = MigrationOptions(mode: .automatic)
    /// Never migrate: a changed model is a `modelMismatch` error.
    public static let disabled = MigrationOptions(mode: .disabled)
    /// Erase the store when the model changed: for development only.
    public static let eraseOnSchemaChange = MigrationOptions(mode: .eraseOnSchemaChange)

    /// Where the old file of the store at `storeURL` is kept, when ``keepsBackup`` is set: the
    /// same path with `.backup` added (beside the resolved file, when `storeURL` is a symlink).
    public static func backupURL(for storeURL: URL) -> URL {
        URL(fileURLWithPath: storeURL.standardizedFileURL.path + ".backup")
    }

    /// Whether the two are equal.
    public static func == (lhs: MigrationOptions, rhs: MigrationOptions) -> Bool {
        lhs.mode == rhs.mode && lhs.keepsBackup == rhs.keepsBackup
    }

    /// Hashes the components that `==` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(mode)
        hasher.combine(keepsBackup)
    }

    /// Reports `completed` of `total` objects migrated in `stage` (0 for an inferred migration).
    func report(_ completed: Int, of total: Int, stage: Int = 0, stages: Int = 1) {
        progress?(
            MigrationProgress(completedObjects: completed, totalObjects: total, stage: stage, stageCount: stages))
    }
}
