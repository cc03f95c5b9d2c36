import Foundation
import ObjectGraph
import ObjectGraphTesting
import Testing
import TodoKit

// Seeding a test from a JSON fixture in the test bundle: readable data, written once, loaded
// into a fresh in-memory container by every test that needs it.

@Suite struct TodoFixtureTests {
    let container: PersistentContainer
    let list: TodoList

    init() throws {
        let url = try #require(Bundle.module.url(forResource: "todos", withExtension: "json", subdirectory: "Fixtures"))
        container = try PersistentContainer.forTesting(TodoItem.self, fixture: url)
        list = TodoList(container: container)
    }

    @Test func fixtureItemsAreListedByCreationDate() throws {
        let items = try list.items
        #expect(items.map(\.title) == ["Buy milk", "Call Ann", "Water the fern"])
        #expect(items.map(\.isDone) == [false, true, false])
        #expect(items.map(\.detail) == ["2 litres", "", "not too much"])
        #expect(items[0].id == UUID(uuidString: "6B1C3F0E-1D1A-4C55-9E1B-2B7C1A6F0002"))
        #expect(items[0].createdAt == ISO8601DateFormatter().date(from: "2026-09-01T08:00:00Z"))
    }

    @Test func workingOnTheFixture() throws {
        try list.markDone(number: 1)
        try list.remove(number: 2)
        try list.add(title: "Post the letter")
        #expect(try list.items.map(\.title) == ["Buy milk", "Water the fern", "Post the letter"])
        try container.expectStore(
            holds: "TodoItem",
            [
                ["title": "Buy milk", "isDone": true], ["title": "Water the fern", "isDone": false],
                ["title": "Post the letter", "detail": "", "isDone": false],
            ])
    }

    @Test func eachTestGetsTheFixtureAfresh() throws {
        #expect(try list.items.count == 3)
        try list.remove(number: 1)
        let again = try PersistentContainer.forTesting(
            TodoItem.self,
            fixture: try #require(
                Bundle.module.url(forResource: "todos", withExtension: "json", subdirectory: "Fixtures")))
        #expect(try TodoList(container: again).items.count == 3)
    }
}
