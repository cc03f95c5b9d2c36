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

// The same store instance, handed to a new container, is an app relaunch without a disk.
let store = InMemoryStore()
do {
    let first = try PersistentContainer(model: model, store: store)
    let context = first.newContext()
    for (name, price) in [("Banana", 80), ("Cherry", 300), ("Fig", 150)] {
        let fruit = Fruit(context: context)
        fruit.name = name
        fruit.price = Int64(price)
    }
    try context.save()
    print("saved \(try context.count(for: Fruit.fetchRequest())) fruits")
}
let relaunched = try PersistentContainer(model: model, store: store)
let again = relaunched.newContext()
for fruit in try again.fetch(Fruit.fetchRequest()) {
    print("after relaunch: \(fruit.name) costs \(fruit.price)")
}
print("deleted \(try again.deleteAll(Fruit.self)) fruits; \(try again.count(for: Fruit.fetchRequest())) left")
