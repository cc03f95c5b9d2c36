import Foundation
import ObjectGraph

/// `objectgraph migrate FILE --to SCHEMA_FILE [--dry-run]`: migrates a store to the schema of
/// another store, or says what that would do.
enum MigrateCommand {
    static let command = Command(
        name: "migrate",
        summary: "Migrate a store file to another store's schema, or print what that would do.",
        arguments: ["FILE"],
        options: [
            .value("--to", "SCHEMA_FILE", help: "The store file whose schema FILE is migrated to (required)."),
            .flag("--dry-run", help: "Print the changes and the objects each touches; write nothing."),
            .flag("--backup", help: "Keep the old file as FILE.backup."),
        ],
        discussion: """
            Infers the migration from FILE's schema to SCHEMA_FILE's, as a store does when an app
            opens it with a changed model, and prints one line per change with the number of
            stored objects it touches. Without --dry-run it then migrates FILE: the new file is
            written beside the old one and swapped in atomically (a SQLite store is migrated in
            one transaction), and a progress line is printed on standard error. A migration that cannot be done changes nothing and exits with
            status 1, naming the entity and property. A stored schema has no renaming
            identifiers, so renames show as a removal and an addition: migrate from the app to
            keep renamed data.

            Example: objectgraph migrate fruits.store --to fruits-v2.store --dry-run
            """,
        run: run)

    static func run(_ arguments: Arguments, _ output: Output) throws -> Int32 {
        guard let target = arguments.value("--to") else {
            throw UsageError(
                message:
                    "migrate needs --to SCHEMA_FILE, the store whose schema FILE is migrated to; see objectgraph migrate --help"
            )
        }
        let url = URL(fileURLWithPath: arguments.positionals[0])
        let model = try StoreFileInspector.model(of: URL(fileURLWithPath: target))
        let changes = try SchemaMigration.changes(migrating: try StoreFileInspector.snapshot(of: url), to: model)
        guard !changes.isEmpty else {
            output.line("nothing to migrate: \(url.path) already has that schema")
            return ExitStatus.success
        }
        for change in changes { output.line(change.description) }
        if arguments.flag("--dry-run") { return ExitStatus.success }
        var options = MigrationOptions(keepsBackup: arguments.flag("--backup"))
        let progressLines = ProgressLines(output)
        options.progress = { progress in progressLines.write("migrating: \(progress)") }
        let store: any PersistentStore
        switch try StoreFileInspector.kind(of: url) {
        case .json: store = JSONFileStore(url: url, migration: options)
        case .binary: store = BinaryFileStore(url: url, migration: options)
        case .sqlite: store = SQLiteStore(url: url, migration: options)
        }
        let container = try PersistentContainer(model: model, store: store)
        output.line("migrated \(url.path): \(try container.readCommittedSnapshot().count) objects")
        return ExitStatus.success
    }
}

/// Progress lines for standard error, from the migration's progress callback.
private final class ProgressLines: @unchecked Sendable {
    // `@unchecked` is safe: `output` is only used under `lock` here, and the command does not
    // use it while the store migrates (the callback runs during the container's open).
    private let lock = NSLock()
    private let output: Output

    init(_ output: Output) { self.output = output }

    func write(_ line: String) { lock.withLock { output.errorLine(line) } }
}
