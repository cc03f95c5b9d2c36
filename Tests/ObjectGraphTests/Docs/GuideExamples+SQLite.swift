import Foundation
import ObjectGraph

// Stores example 4 begin
/// Opens the app's SQLite store, shared with its widget process, and reads what the widget saved
/// since `token` from the persistent history.
func openSharedStore(at url: URL, model: ManagedObjectModel, after token: PersistentHistoryToken?) throws -> (
    PersistentContainer, [PersistentHistoryTransaction]
) {
    let store = SQLiteStore(url: url, synchronous: .full, busyTimeout: .seconds(5))
    let container = try PersistentContainer(model: model, store: store)
    let context = container.newContext()
    context.automaticallyMergesChanges = true  // merges other processes' saves on each fetch
    return (container, try store.fetchHistory(after: token))
}
// Stores example 4 end
