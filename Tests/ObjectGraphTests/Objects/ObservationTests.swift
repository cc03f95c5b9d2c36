import Foundation
import ObjectGraph
import Observation
import Testing

/// Counts `withObservationTracking` change calls (they may come from any thread).
final class ChangeCounter: Sendable {
    private let count = Locked(0)
    var value: Int { count.withLock { $0 } }
    func increment() { count.withLock { $0 += 1 } }
}

/// Tracks `read` once and returns the counter its change calls increment.
func track(_ read: () -> Void) -> ChangeCounter {
    let counter = ChangeCounter()
    withObservationTracking(read) { counter.increment() }
    return counter
}

@Suite struct ObservationTests {
    @Test func readingAnAttributeRegistersItAndAWriteNotifiesOnce() throws {
        let (_, context) = try makeContext()
        let apple = makeFruit(context, "Apple", price: 100)
        let counter = track { _ = apple.price }
        #expect(counter.value == 0)
        apple.price = 120
        #expect(counter.value == 1)
        apple.price = 130  // the tracking ended with the first change
        #expect(counter.value == 1)
    }

    @Test func writingTheSameValueDoesNotNotify() throws {
        let (_, context) = try makeContext()
        let apple = makeFruit(context, "Apple", price: 100)
        let counter = track { _ = apple.price }
        apple.price = 100
        #expect(counter.value == 0)
    }

    @Test func anUnrelatedPropertyOrObjectDoesNotNotify() throws {
        let (_, context) = try makeContext()
        let apple = makeFruit(context, "Apple", price: 100)
        let pear = makeFruit(context, "Pear", price: 100)
        let counter = track { _ = apple.price }
        apple.name = "Green apple"
        pear.price = 5
        #expect(counter.value == 0)
        apple.price = 1
        #expect(counter.value == 1)
    }

    @Test func untypedReadsAndWritesMeetTypedOnes() throws {
        let (_, context) = try makeContext()
        let apple = makeFruit(context, "Apple", price: 100)
        let typedReader = track { _ = apple.name }
        let untypedReader = track { _ = try? apple.value(forKey: "name") }
        let otherKeyReader = track { _ = try? apple.value(forKey: "price") }
        try apple.setValue("Äpfel 🍎", forKey: "name")
        #expect(typedReader.value == 1)
        #expect(untypedReader.value == 1)
        #expect(otherKeyReader.value == 0)
    }

    @Test func relationshipsAndTheirInversesNotify() throws {
        let (_, context) = try makeContext()
        let apple = makeFruit(context, "Apple")
        let basket = Basket(context: context)
        let fruitsReader = track { _ = basket.fruits }
        let basketReader = track { _ = apple.basket }
        apple.basket = basket
        #expect(basketReader.value == 1)
        #expect(fruitsReader.value == 1)  // the inverse update
    }

    @Test func rollbackNotifiesChangedProperties() throws {
        let (_, context) = try makeContext()
        let apple = makeFruit(context, "Apple", price: 100)
        try context.save()
        apple.price = 200
        let counter = track { _ = apple.price }
        let nameReader = track { _ = apple.name }
        context.rollback()
        #expect(apple.price == 100)
        #expect(counter.value == 1)
        #expect(nameReader.value == 0)
    }

    @Test func refreshNotifies() throws {
        let (_, context) = try makeContext()
        let apple = makeFruit(context, "Apple", price: 100)
        try context.save()
        apple.price = 300
        let counter = track { _ = apple.price }
        context.refresh(apple, mergeChanges: false)
        #expect(counter.value == 1)
        #expect(apple.price == 100)
    }

    @Test func mergedChangesFromAnotherContextNotify() async throws {
        let (container, context) = try makeContext()
        let apple = makeFruit(context, "Apple", price: 100)
        try context.save()
        let other = container.newContext()
        let otherApple = try #require(try other.existingObject(with: apple.objectID) as? Fruit)
        let priceReader = track { _ = apple.price }
        let nameReader = track { _ = apple.name }
        let saves = container.saves
        otherApple.price = 150
        try other.save()
        var iterator = saves.makeAsyncIterator()
        let notification = try #require(await iterator.next())
        #expect(priceReader.value == 0)
        context.mergeChanges(from: notification)
        #expect(apple.price == 150)
        #expect(priceReader.value == 1)
        #expect(nameReader.value == 0)
    }

    @Test func automaticallyMergedChangesNotifyWhenProcessed() throws {
        let (container, context) = try makeContext()
        context.automaticallyMergesChanges = true
        let apple = makeFruit(context, "Apple", price: 100)
        try context.save()
        let other = container.newContext()
        let otherApple = try #require(try other.existingObject(with: apple.objectID) as? Fruit)
        let counter = track { _ = apple.price }
        otherApple.price = 150
        try other.save()
        context.processPendingChanges()
        #expect(counter.value == 1)
        #expect(apple.price == 150)
    }

    @Test func deletionNotifiesEveryProperty() throws {
        let (_, context) = try makeContext()
        let basket = Basket(context: context)
        let apple = makeFruit(context, "Apple")
        apple.basket = basket
        try context.save()
        let nameReader = track { _ = apple.name }
        let fruitsReader = track { _ = basket.fruits }
        context.delete(apple)
        #expect(nameReader.value == 1)
        #expect(fruitsReader.value == 1)
    }

    @Test func deletionSavedElsewhereNotifiesOnMerge() async throws {
        let (container, context) = try makeContext()
        let apple = makeFruit(context, "Apple")
        try context.save()
        let other = container.newContext()
        other.delete(try other.existingObject(with: apple.objectID))
        let saves = container.saves
        try other.save()
        var iterator = saves.makeAsyncIterator()
        let notification = try #require(await iterator.next())
        let counter = track { _ = apple.name }
        context.mergeChanges(from: notification)
        #expect(counter.value == 1)
        #expect(apple.isDeleted)
    }

    @Test func objectsNeverReadNotifyNobodyAndStateFlagsDoNotRegister() throws {
        let (_, context) = try makeContext()
        let apple = makeFruit(context, "Apple")
        let counter = track {
            _ = apple.isDeleted
            _ = apple.hasChanges
        }
        apple.price = 1
        context.delete(apple)
        #expect(counter.value == 0)
    }

    @Test func observationOfManyObjectsNotifiesOnlyTheChangedOne() throws {
        let (_, context) = try makeContext()
        let fruits = (0..<1_000).map { makeFruit(context, "Fruit \($0)", price: Int64($0)) }
        let counters = fruits.map { fruit in track { _ = fruit.price } }
        fruits[500].price = -1
        #expect(counters.enumerated().filter { $0.element.value > 0 }.map(\.offset) == [500])
    }
}
