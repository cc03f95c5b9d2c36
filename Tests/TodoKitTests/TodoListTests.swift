import Foundation
import ObjectGraph
import ObjectGraphTesting
import Testing
import TodoKit

// The way we recommend testing an app's model: each test builds its own in-memory container in
// one line and injects a context into the code under test. Nothing is shared between tests, so
// they run in parallel and never see the app's real data.

@Suite struct TodoListTests {
    let container: PersistentContainer
    let list: TodoList

    init() throws {
        container = try PersistentContainer.forTesting(TodoItem.self)
        list = TodoList(context: container.newContext())
    }

    // MARK: - Adding

    @Test func addCreatesAnItemWithTitleAndDetail() throws {
        let item = try list.add(title: "Buy milk", detail: "2 litres")
        let items = try list.items
        #expect(items.count == 1)
        #expect(items.first === item)
        #expect(item.title == "Buy milk" && item.detail == "2 litres" && !item.isDone)
        try list.context.expectNoUnsavedChanges()
        try container.expectStore(holds: "TodoItem", [["title": "Buy milk", "detail": "2 litres", "isDone": false]])
    }

    @Test func addTrimsAndRefusesAnEmptyTitle() throws {
        let item = try list.add(title: "  Call Ann \n", detail: " soon ")
        #expect(item.title == "Call Ann" && item.detail == "soon")
        for title in ["", "   ", "\n\t"] {
            let error = #expect(throws: TodoError.self) { try list.add(title: title) }
            guard case .emptyTitle = error else { Issue.record("\(String(describing: error))"); continue }
        }
        #expect(try list.items.count == 1)
        try list.context.expectNoUnsavedChanges()
    }

    @Test func eachItemGetsItsOwnIdAndCreationDate() throws {
        let before = Date()
        let first = try list.add(title: "one")
        let second = try list.add(title: "two")
        #expect(first.id != second.id)
        #expect(first.createdAt >= before && second.createdAt >= first.createdAt)
    }

    @Test func itemsAreInCreationOrderWhateverTheStoreOrder() throws {
        let now = Date()
        let container = try PersistentContainer.forTesting(TodoItem.self) { context in
            for (title, age) in [("newest", 0.0), ("oldest", 300.0), ("middle", 60.0)] {
                let item = TodoItem(context: context)
                item.title = title
                item.createdAt = now - age
            }
        }
        let list = TodoList(container: container)
        #expect(try list.items.map(\.title) == ["oldest", "middle", "newest"])
        #expect(try list.item(number: 1).title == "oldest")
    }

    // MARK: - Counts and values after each step (create, toggle done, delete)

    @Test func countsAndValuesAfterEachStep() throws {
        try list.add(title: "Buy milk", detail: "2 litres")
        try list.add(title: "Call Ann")
        try list.add(title: "Water the fern", detail: "not too much")
        #expect(try list.items.count == 3)
        #expect(try list.items.map(\.title) == ["Buy milk", "Call Ann", "Water the fern"])
        #expect(try list.items.map(\.isDone) == [false, false, false])

        try list.markDone(number: 2)
        #expect(try list.items.map(\.isDone) == [false, true, false])
        try container.expectStore(
            holds: "TodoItem",
            [
                ["title": "Buy milk", "isDone": false], ["title": "Call Ann", "isDone": true],
                ["title": "Water the fern", "isDone": false],
            ])

        try list.markDone(number: 2, false)
        #expect(try list.items.map(\.isDone) == [false, false, false])

        #expect(try list.remove(number: 1) == "Buy milk")
        #expect(try list.items.count == 2)
        #expect(try list.items.map(\.title) == ["Call Ann", "Water the fern"])
        #expect(try list.item(number: 2).detail == "not too much")
        try list.context.expectNoUnsavedChanges()
        try container.expectStore(holds: "TodoItem", [["title": "Call Ann"], ["title": "Water the fern"]])
    }

    @Test func changesAreVisibleToAnotherContext() throws {
        try list.add(title: "Buy milk")
        try list.markDone(number: 1)
        let other = TodoList(container: container)
        #expect(try other.items.map(\.title) == ["Buy milk"])
        #expect(try other.item(number: 1).isDone)
    }

    @Test func markingAnItemAsItIsSavesNothing() throws {
        let store = RecordingStore()
        let list = TodoList(container: try .forTesting(model: try TodoItem.makeModel(), store: store))
        try list.add(title: "Buy milk")
        try list.markDone(number: 1, false)
        #expect(store.changeSets.count == 1)
    }

    // MARK: - Numbers that name no item

    @Test(arguments: [0, -1, 4, Int.max])
    func numbersOutsideTheListAreNoSuchItem(number: Int) throws {
        for title in ["a", "b", "c"] { try list.add(title: title) }
        let lookUp = #expect(throws: TodoError.self) { try list.item(number: number) }
        let markDone = #expect(throws: TodoError.self) { try list.markDone(number: number) }
        let remove = #expect(throws: TodoError.self) { try list.remove(number: number) }
        #expect([lookUp, markDone, remove].map { $0?.missingNumber } == [number, number, number])
        #expect(try list.items.count == 3)
        try list.context.expectNoUnsavedChanges()
    }

    @Test func anEmptyListHasNoItemOne() throws {
        #expect(try list.items.isEmpty)
        let error = #expect(throws: TodoError.self) { try list.markDone(number: 1) }
        #expect(error?.missingNumber == 1)
        #expect(error?.description == "there is no item 1")
    }

    // MARK: - Isolation

    @Test func everyTestStartsWithAnEmptyList() throws {
        #expect(try list.items.isEmpty)
        #expect(try TodoList(container: try .forTesting(TodoItem.self)).items.isEmpty)
    }
}
