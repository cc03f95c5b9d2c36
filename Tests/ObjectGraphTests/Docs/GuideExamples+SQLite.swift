import Foundation
import ObjectGraph

// Stores example 5 begin
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
// Stores example 5 end

// Stores example 4 begin
/// The total price of every fruit in a store of any size, read 1,000 rows at a time.
func totalPrice(in context: ManagedContext) throws -> Int64 {
    var request = FetchRequest<Fruit>()
    request.fetchBatchSize = 1_000
    var total: Int64 = 0
    for page in try context.fetchBatches(request) {
        total += page.reduce(0) { $0 + $1.price }
    }
    return total
}
// Stores example 4 end
