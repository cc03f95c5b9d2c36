import Foundation
import ObjectGraph
import Observation
import Testing

/// Observation, fetched results and undo when the changes come from a child context's save or a
/// batch request.
@Suite struct ObservationOfChildAndBatchTests {
    @Test func aChildsSaveNotifiesReadersInTheParent() throws {
        let (_, parent) = try makeContext()
        let apple = makeFruit(parent, "Apple", price: 100)
        try parent.save()
        let priceReader = track { _ = apple.price }
        let nameReader = track { _ = apple.name }

        let child = parent.newChildContext()
        let childApple = try #require(try child.existingObject(with: apple.objectID) as? Fruit)
        childApple.price = 150
        #expect(priceReader.value == 0)  // the child's edit is the child's until it saves
        try child.save()

        #expect(apple.price == 150)
        #expect(priceReader.value == 1)
        #expect(nameReader.value == 0)
    }

    @Test func aDiscardedChildNotifiesNobody() throws {
        let (_, parent) = try makeContext()
        let apple = makeFruit(parent, "Apple", price: 100)
        try parent.save()
        let counter = track { _ = apple.price }
        do {
            let child = parent.newChildContext()
            let childApple = try #require(try child.existingObject(with: apple.objectID) as? Fruit)
            childApple.price = 1
            child.rollback()
        }
        #expect(counter.value == 0)
        #expect(apple.price == 100)
    }

    @Test func theParentsControllerReportsAChildsSave() throws {
        let (_, parent) = try makeContext()
        makeFruit(parent, "Banana", price: 2)
        makeFruit(parent, "Cherry", price: 3)
        try parent.save()
        var request = Fruit.fetchRequest()
        request.sortDescriptors = [SortDescriptor(key: "name")]
        let controller = FetchedResultsController(fetchRequest: request, context: parent)
        try controller.performFetch()
        var reports: [FetchedResultsChanges] = []
        controller.onChange = { reports.append($0) }

        let child = parent.newChildContext()
        makeFruit(child, "Apple", price: 1)
        #expect(reports.isEmpty)
        try child.save()

        #expect(reports == [FetchedResultsChanges(inserted: [0])])
        #expect(controller.fetchedObjects.map(\.name) == ["Apple", "Banana", "Cherry"])
    }

    @Test func aChildsSaveIsUndoneInTheParent() throws {
        let (_, parent) = try makeContext()
        let apple = makeFruit(parent, "Apple", price: 100)
        try parent.save()
        parent.undoManager = ContextUndoManager()

        let child = parent.newChildContext()
        let childApple = try #require(try child.existingObject(with: apple.objectID) as? Fruit)
        childApple.price = 150
        makeFruit(child, "Pear", price: 5)
        try child.save()
        #expect(apple.price == 150)
        #expect(try parent.count(for: Fruit.fetchRequest()) == 2)

        let undo = try #require(parent.undoManager)
        #expect(undo.canUndo)
        undo.undo()
        #expect(apple.price == 100)
        #expect(try parent.count(for: Fruit.fetchRequest()) == 1)
        undo.redo()
        #expect(apple.price == 150)
        #expect(try parent.count(for: Fruit.fetchRequest()) == 2)
    }

    @Test func aMergedBatchUpdateNotifiesAndIsReported() throws {
        let (_, context) = try makeContext()
        let apple = makeFruit(context, "Apple", price: 1)
        let banana = makeFruit(context, "Banana", price: 2)
        makeFruit(context, "Cherry", price: 3)
        try context.save()
        var request = Fruit.fetchRequest()
        request.sortDescriptors = [SortDescriptor(key: "price"), SortDescriptor(key: "name")]
        let controller = FetchedResultsController(fetchRequest: request, context: context)
        try controller.performFetch()
        var reports: [FetchedResultsChanges] = []
        controller.onChange = { reports.append($0) }
        let appleReader = track { _ = apple.price }
        let bananaReader = track { _ = banana.name }

        var batch = BatchUpdateRequest(Fruit.self, propertiesToUpdate: ["price": .int(9)])
        batch.predicate = try FetchPredicate(format: "name == %@", "Apple")
        let result = try context.execute(batch)
        #expect(appleReader.value == 0)  // not merged yet: the context is not updated in place
        #expect(reports.isEmpty)
        context.mergeChanges(from: result.notification)

        #expect(apple.price == 9)
        #expect(appleReader.value == 1)
        #expect(bananaReader.value == 0)
        #expect(reports == [FetchedResultsChanges(moved: [.init(from: 0, to: 2)])])
        #expect(controller.fetchedObjects.map(\.name) == ["Banana", "Cherry", "Apple"])
    }
}
