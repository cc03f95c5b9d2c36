// A store file keeps data across runs: by default in the user's data directory
// ($XDG_DATA_HOME or ~/.local/share), or at the path given as the first argument.
import Foundation
// The README's quick start, then a little more: run it with `swift run fruits`.
// README quick start begin
import ObjectGraph

final class Fruit: ManagedObject {
    @Attribute var name = ""
    @Attribute var price: Int64 = 0
}

let model = try ManagedObjectModel(Fruit.self)
let container = try PersistentContainer(model: model, storeDescription: .inMemory)
let context = container.newContext()

let apple = Fruit(context: context)  // create
apple.name = "Apple"
apple.price = 120
try context.save()

print(try context.fetch(Fruit.fetchRequest()).map(\.name))  // read: ["Apple"]

apple.price = 99  // update
try context.saveIfNeeded()

context.delete(apple)  // delete
try context.save()
// README quick start end

let storeURL: URL
if CommandLine.arguments.count > 1 {
    storeURL = URL(fileURLWithPath: CommandLine.arguments[1])
} else {
    let dataHome =
        ProcessInfo.processInfo.environment["XDG_DATA_HOME"].map { URL(fileURLWithPath: $0) }
        ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".local/share")
    let directory = dataHome.appendingPathComponent("objectgraph-examples")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    storeURL = directory.appendingPathComponent("fruits.ogdb")
}
let stored = try PersistentContainer(model: model, storeDescription: try StoreDescription(url: storeURL))
let shelf = stored.newContext()
let visits = try shelf.count(for: Fruit.fetchRequest())
let visit = Fruit(context: shelf)
visit.name = "visit \(visits + 1)"
visit.price = Int64(Date().timeIntervalSince1970) % 1000
try shelf.save()
print("\(storeURL.path) now holds:")
for fruit in try shelf.fetch(Fruit.fetchRequest()) {
    print("  \(fruit.name) (price \(fruit.price))")
}
