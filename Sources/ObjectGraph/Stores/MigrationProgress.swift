/// How far a migration has come, as reported to ``MigrationOptions/progress``.
///
/// Core Data: `NSMigrationManager.migrationProgress`.
public struct MigrationProgress: Sendable, Hashable, CustomStringConvertible {
    /// The objects migrated so far in the current stage.
    public var completedObjects: Int
    /// The objects the current stage migrates.
    public var totalObjects: Int
    /// The current stage, from 0 (an inferred migration has one stage).
    public var stage: Int
    /// The number of stages.
    public var stageCount: Int

    /// Creates a progress report.
    public init(completedObjects: Int, totalObjects: Int, stage: Int = 0, stageCount: Int = 1) {
        self.completedObjects = completedObjects
        self.totalObjects = totalObjects
        self.stage = stage
        self.stageCount = stageCount
    }

    /// The part of the whole migration done, from 0 to 1.
    public var fractionCompleted: Double {
        let within = totalObjects > 0 ? Double(completedObjects) / Double(totalObjects) : 1
        return (Double(stage) + min(within, 1)) / Double(max(stageCount, 1))
    }

    /// A readable description, for logs and debugging.
    public var description: String {
        let stagePart = stageCount > 1 ? "stage \(stage + 1) of \(stageCount): " : ""
        return "\(stagePart)\(completedObjects) of \(totalObjects) objects"
    }
}
