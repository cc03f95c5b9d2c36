import Foundation
import ObjectGraph
import Testing

@Suite struct SaveNotificationTests {
    @Test func everySaveIsPublishedInCommitOrder() async throws {
        let (container, context) = try makeContext()
        let saves = container.saves
        let other = container.saves
        let apple = makeFruit(context, "apple")
        try context.save()
        apple.price = 1
        try context.save()
        context.delete(apple)
        try context.save()
        try context.save()  // no changes: nothing is published

        var received: [SaveNotification] = []
        for await notification in saves {
            received.append(notification)
            if received.count == 3 { break }
        }
        #expect(received.map(\.sequenceNumber) == [1, 2, 3])
        #expect(received[0].insertedObjectIDs == [apple.objectID])
        #expect(received[1].updatedObjectIDs == [apple.objectID])
        #expect(received[2].deletedObjectIDs == [apple.objectID])
        #expect(received.allSatisfy { $0.origin == context.identifier && $0.touches(entityNamed: "Fruit") })
        var iterator = other.makeAsyncIterator()
        #expect(await iterator.next()?.sequenceNumber == 1)
    }

    @Test func concurrentSavesArePublishedOncePerSaveWithIncreasingNumbers() async throws {
        let container = try PersistentContainer(model: TestModels.fruits, storeDescription: .inMemory)
        let saves = container.saves
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<4 {
                group.addTask {
                    try await container.performBackgroundTask { context in
                        for index in 0..<25 {
                            makeFruit(context, "\(task)-\(index)")
                            try context.save()
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        var numbers: [Int] = []
        var inserted: Set<ObjectID> = []
        for await notification in saves {
            numbers.append(notification.sequenceNumber)
            inserted.formUnion(notification.insertedObjectIDs)
            if numbers.count == 100 { break }
        }
        #expect(numbers == Array(1...100))
        #expect(inserted.count == 100)
    }

    @Test func mergeChangesRefreshesUpdatedAndDropsDeletedObjects() async throws {
        let (container, writer) = try makeContext()
        let apple = makeFruit(writer, "apple", price: 1)
        let pear = makeFruit(writer, "pear")
        try writer.save()

        let reader = container.newContext()
        let readerApple = try #require(try reader.existingObject(with: apple.objectID) as? Fruit)
        let readerPear = try #require(try reader.existingObject(with: pear.objectID) as? Fruit)
        readerApple.name = "apple (edited here)"

        var saves = container.saves.makeAsyncIterator()
        apple.price = 2
        writer.delete(pear)
        try writer.save()
        let notification = try #require(await saves.next())
        #expect(notification.updatedObjectIDs == [apple.objectID] && notification.deletedObjectIDs == [pear.objectID])

        reader.mergeChanges(from: notification)
        #expect(readerApple.price == 2 && readerApple.name == "apple (edited here)")
        #expect(readerApple.isUpdated)
        #expect(readerPear.isDeleted && readerPear.name == "pear")
        try reader.save()
        let fresh = container.newContext()
        #expect(try fresh.fetch(Fruit.fetchRequest()).map { "\($0.name) \($0.price)" } == ["apple (edited here) 2"])
    }

    @Test func ownSavesAreIgnored() async throws {
        let (container, context) = try makeContext()
        var saves = container.saves.makeAsyncIterator()
        let apple = makeFruit(context, "apple")
        try context.save()
        let notification = try #require(await saves.next())
        apple.price = 5
        context.mergeChanges(from: notification)
        #expect(apple.price == 5 && apple.isUpdated)
    }
}

@Suite struct AutomaticMergeTests {
    @Test func aContextThatMergesAutomaticallySeesOtherSavesAtItsNextOperation() throws {
        let (container, writer) = try makeContext()
        let apple = makeFruit(writer, "apple", price: 1)
        let pear = makeFruit(writer, "pear")
        try writer.save()

        let reader = container.newContext()
        reader.automaticallyMergesChanges = true
        let readerApple = try #require(try reader.existingObject(with: apple.objectID) as? Fruit)
        let readerPear = try #require(try reader.existingObject(with: pear.objectID) as? Fruit)

        apple.price = 2
        writer.delete(pear)
        try writer.save()
        #expect(readerApple.price == 1, "nothing changes until the reader's next operation")
        #expect(try reader.count(for: Fruit.fetchRequest()) == 1)
        #expect(readerApple.price == 2)
        #expect(readerPear.isDeleted)
        #expect(!reader.hasChanges)
    }

    @Test func turningItOffStopsMerging() throws {
        let (container, writer) = try makeContext()
        let apple = makeFruit(writer, "apple", price: 1)
        try writer.save()
        let reader = container.newContext()
        reader.automaticallyMergesChanges = true
        let readerApple = try #require(try reader.existingObject(with: apple.objectID) as? Fruit)
        reader.automaticallyMergesChanges = false
        apple.price = 3
        try writer.save()
        _ = try reader.fetch(Fruit.fetchRequest())
        #expect(readerApple.price == 1)
    }

    @MainActor @Test func theViewContextMergesBackgroundSaves() async throws {
        let container = try PersistentContainer(model: TestModels.fruits, storeDescription: .inMemory)
        container.viewContext.automaticallyMergesChanges = true
        let apple = makeFruit(container.viewContext, "apple", price: 1)
        try container.viewContext.save()
        let id = apple.objectID
        try await container.performBackgroundTask { context in
            (try context.existingObject(with: id) as? Fruit)?.price = 10
            try context.save()
        }
        #expect(try container.viewContext.fetch(Fruit.fetchRequest()).first?.price == 10)
        #expect(apple.price == 10)
    }
}
