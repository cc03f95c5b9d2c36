import Foundation
import Testing

@testable import ObjectGraph

@Suite struct JSONFileStoreTests {
    final class Plum: ManagedObject {
        @Attribute var name = ""
        @Attribute var weight = 0.0
        @Attribute var picked: Date?
        @Relationship(inverse: "plums") var tree: Tree?
    }

    final class Tree: ManagedObject {
        @Attribute var label = ""
        @Relationship(inverse: "tree") var plums: Set<Plum>
    }

    let model = try! ManagedObjectModel(Plum.self, Tree.self)

    private func save(to url: URL, pretty: Bool = true) throws {
        let container = try PersistentContainer(model: model, store: JSONFileStore(url: url, prettyPrinted: pretty))
        let context = container.newContext()
        let tree = Tree(context: context)
        tree.label = "old \"oak\""
        for (name, weight) in [("a", 1.5), ("b", 0.1)] {
            let plum = Plum(context: context)
            plum.name = name
            plum.weight = weight
            plum.tree = tree
        }
        try context.save()
    }

    @Test func documentIsStableReadableAndDiffable() throws {
        let url = TemporaryDirectory.make().appendingPathComponent("plums.json")
        try save(to: url)
        let text = try String(contentsOf: url, encoding: .utf8)
        let expected = """
            {
              "format": "objectgraph-json",
              "version": 1,
              "schema": [
                {"name": "Plum", "attributes": [{"name": "name", "type": "string", "optional": false, "indexed": false}, \
            {"name": "weight", "type": "double", "optional": false, "indexed": false}, {"name": "picked", "type": "date", \
            "optional": true, "indexed": false}], "relationships": [{"name": "tree", "destination": "Tree", "inverse": \
            "plums", "toMany": false, "ordered": false, "optional": true, "deleteRule": "nullify", "minCount": 0, \
            "maxCount": 0}], "uniquenessConstraints": []},
                {"name": "Tree", "attributes": [{"name": "label", "type": "string", "optional": false, "indexed": \
            false}], "relationships": [{"name": "plums", "destination": "Plum", "inverse": "tree", "toMany": true, \
            "ordered": false, "optional": true, "deleteRule": "nullify", "minCount": 0, "maxCount": 0}], \
            "uniquenessConstraints": []}
              ],
              "entities": {
                "Plum": {
                  "nextKey": 3,
                  "objects": {
                    "1": {"$version": 1, "name": "a", "weight": 1.5, "picked": null, "tree": 1},
                    "2": {"$version": 1, "name": "b", "weight": 0.1, "picked": null, "tree": 1}
                  }
                },
                "Tree": {
                  "nextKey": 2,
                  "objects": {
                    "1": {"$version": 1, "label": "old \\"oak\\"", "plums": [1, 2]}
                  }
                }
              }
            }

            """
        #expect(text == expected)
        #expect(try JSONSerialization.jsonObject(with: Data(text.utf8)) is [String: Any])
    }

    @Test(arguments: [true, false])
    func twoSavesOfTheSameDataAreByteIdentical(pretty: Bool) throws {
        let directory = TemporaryDirectory.make()
        let first = directory.appendingPathComponent("first.json")
        let second = directory.appendingPathComponent("second.json")
        try save(to: first, pretty: pretty)
        try save(to: second, pretty: pretty)
        #expect(try Data(contentsOf: first) == Data(contentsOf: second))
        // Reopening and saving again without changes rewrites nothing different either.
        let before = try Data(contentsOf: first)
        do {
            let container = try PersistentContainer(
                model: model, store: JSONFileStore(url: first, prettyPrinted: pretty))
            let context = container.newContext()
            let plum = try #require(try context.fetch(Plum.fetchRequest()).first)
            plum.weight = 9
            try context.save()
            plum.weight = 1.5
            try context.save()
        }
        let after = try String(contentsOf: first, encoding: .utf8)
        #expect(
            after.replacingOccurrences(of: "\"$version\": 3", with: "\"$version\": 1")
                .replacingOccurrences(of: "\"$version\":3", with: "\"$version\":1")
                == String(decoding: before, as: UTF8.self))
    }

    @Test func compactDocumentHasNoWhitespace() throws {
        let url = TemporaryDirectory.make().appendingPathComponent("plums.json")
        try save(to: url, pretty: false)
        let text = try String(contentsOf: url, encoding: .utf8)
        #expect(!text.contains("\n") && !text.contains(": "))
        #expect(text.contains("\"1\":{\"$version\":1,\"name\":\"a\",\"weight\":1.5,\"picked\":null,\"tree\":1}"))
    }

    @Test func handEditedKeysInAnyOrderAreRead() throws {
        let url = TemporaryDirectory.make().appendingPathComponent("plums.json")
        try save(to: url)
        var text = try String(contentsOf: url, encoding: .utf8)
        text = text.replacingOccurrences(
            of: "{\"$version\": 1, \"name\": \"a\", \"weight\": 1.5, \"picked\": null, \"tree\": 1}",
            with: "{ \"tree\" : 1 , \"picked\":0, \"weight\":2.5e0,\"name\":\"\\u00e9\\ud83c\\udf4e\", \"$version\":7 }"
        )
        try text.write(to: url, atomically: false, encoding: .utf8)
        let container = try PersistentContainer(model: model, store: JSONFileStore(url: url))
        let plums = try container.newContext().fetch(Plum.fetchRequest())
        #expect(plums.first?.name == "é🍎" && plums.first?.weight == 2.5)
        #expect(plums.first?.picked == Date(timeIntervalSinceReferenceDate: 0))
    }
}
