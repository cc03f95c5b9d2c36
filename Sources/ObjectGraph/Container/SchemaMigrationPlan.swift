/// The versions of an app's model and the stages that migrate a store from each to the next, in
/// SwiftData's shape: a store written with any listed version opens with the last one.
///
/// A store's version is found by matching its stored schema against each version's (the last
/// match wins, so give each version a schema of its own). From there each stage runs in turn,
/// all in memory; the store is written once, at the end, or not at all. Between two versions
/// without a stage, the change is inferred.
///
/// For example:
/// ```swift
/// enum NotesMigrationPlan: SchemaMigrationPlan {
///     static var versions: [ManagedObjectModel] { get throws { [try notesV1(), try notesV2()] } }
///     static var stages: [MigrationStage] {
///         get throws {
///             [.custom(from: try notesV1(), to: try notesV2(), willMigrate: nil) { context in
///                 for note in try context.fetch(FetchRequest<ManagedObject>(entityName: "Note")) {
///                     note.setValue("untitled", forKey: "title")
///                 }
///             }]
///         }
///     }
/// }
/// let container = try PersistentContainer(migrationPlan: NotesMigrationPlan.self, storeDescription: .jsonFile(url))
/// ```
///
/// Core Data: a versioned model (`.xcdatamodeld`) with mapping models; SwiftData:
/// `SchemaMigrationPlan`.
public protocol SchemaMigrationPlan {
    /// Every version of the model, oldest first; the last is the model the container opens with.
    static var versions: [ManagedObjectModel] { get throws }
    /// The stages between versions, oldest first.
    static var stages: [MigrationStage] { get throws }
}
