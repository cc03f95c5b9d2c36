import Foundation
import Testing

@testable import ObjectGraph

@Suite struct BinaryFileStoreTests {
    private func fileSize(_ url: URL) throws -> Int {
        try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int ?? 0
    }

    @Test func eachSaveAppendsInProportionToTheChange() throws {
        let url = TemporaryDirectory.make().appendingPathComponent("fruits.ogdb")
        let container = try PersistentContainer(model: TestModels.fruits, store: BinaryFileStore(url: url))
        let context = container.newContext()
        for index in 0..<2_000 { makeFruit(context, "fruit \(index)") }
        try context.save()
        let apple = try #require(try context.fetch(Fruit.fetchRequest()).first)
        var sizes: [Int] = [try fileSize(url)]
        for price in 1...5 as ClosedRange<Int64> {
            apple.price = price
            try context.save()
            sizes.append(try fileSize(url))
        }
        let growth = zip(sizes.dropFirst(), sizes).map { $0 - $1 }
        #expect(growth.allSatisfy { $0 > 0 && $0 < 100 }, "\(growth)")
    }

    @Test func logIsCompactedWhenItOutgrowsTheLiveData() throws {
        let url = TemporaryDirectory.make().appendingPathComponent("fruits.ogdb")
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let store = BinaryFileStore(
            url: url, fileSystem: POSIXFileSystem(), compactionRatio: 2, compactionThreshold: 4096)
        do {
            let container = try PersistentContainer(model: TestModels.fruits, store: store)
            let context = container.newContext()
            for index in 0..<50 { makeFruit(context, "fruit \(index)", price: Int64(index)) }
            try context.save()
            try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: url.path)
            let fruits = try context.fetch(Fruit.fetchRequest())
            var largest = 0
            for round in 1...200 {
                fruits[round % fruits.count].price += 1000
                try context.save()
                largest = max(largest, try fileSize(url))
            }
            #expect(largest < 3 * 4096 + 4096, "the log grew to \(largest) bytes without compacting")
            context.delete(fruits[0])
            try context.save()
        }
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o640)
        let container = try PersistentContainer(model: TestModels.fruits, store: store)
        let fruits = try container.newContext().fetch(Fruit.fetchRequest())
        #expect(fruits.count == 49)
        let total = fruits.map(\.price).reduce(0, +)
        let expected: Int64 = (1..<50).reduce(0, +) + 200 * 1000 - 4 * 1000
        #expect(total == expected)
        let names = try FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path)
        #expect(names.filter { $0.hasPrefix(".objectgraph-tmp-") }.isEmpty)
    }

    @Test func deletingMostObjectsShrinksTheFile() throws {
        let url = TemporaryDirectory.make().appendingPathComponent("fruits.ogdb")
        let store = BinaryFileStore(
            url: url, fileSystem: POSIXFileSystem(), compactionRatio: 2, compactionThreshold: 4096)
        let container = try PersistentContainer(model: TestModels.fruits, store: store)
        let context = container.newContext()
        for index in 0..<2_000 { makeFruit(context, "a somewhat longer fruit name \(index)") }
        try context.save()
        let full = try fileSize(url)
        for _ in 0..<3 {
            let fruits = try context.fetch(Fruit.fetchRequest())
            for fruit in fruits.prefix(fruits.count * 3 / 4) { context.delete(fruit) }
            try context.save()
        }
        #expect(try context.count(for: Fruit.fetchRequest()) == 32)
        let size = try fileSize(url)
        #expect(size < full / 4, "\(size) of \(full) bytes")
    }
}
