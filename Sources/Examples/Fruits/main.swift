import ObjectGraph

final class Basket: ManagedObject {
    @Attribute var label = ""
    @Relationship(inverse: "basket", deleteRule: .cascade) var fruits: Set<Fruit>
}

final class Fruit: ManagedObject {
    @Attribute var name = ""
    @Attribute var price: Int64 = 0
    @Relationship(inverse: "fruits") var basket: Basket?
}

let model = try ManagedObjectModel(Fruit.self, Basket.self)
let container = try PersistentContainer(model: model, storeDescription: .inMemory)
let context = container.newContext()
let basket = Basket(context: context)
basket.label = "kitchen"
for (name, price) in [("apple", 120), ("banana", 80), ("cherry", 300)] {
    let fruit = Fruit(context: context)
    fruit.name = name
    fruit.price = Int64(price)
    fruit.basket = basket
}
try context.save()
let fruits = try context.fetch(Fruit.fetchRequest())
print(fruits.map { "\($0.name) \($0.price) \($0.basket?.label ?? "-")" })
print(basket.fruits.map(\.name).sorted())
context.delete(basket)
try context.save()
print(try context.count(for: Fruit.fetchRequest()))
