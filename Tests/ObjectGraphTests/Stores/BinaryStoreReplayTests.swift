import Foundation
import Testing

@testable import ObjectGraph

/// Reopening a binary store replays its frames: rows in key order past chunk boundaries,
/// deletions, updates and strings of every kind come back as they were saved.
@Suite struct BinaryStoreReplayTests {
    @Test func replayRestoresRowsPastChunkBoundariesWithDeletesAndUpdates() throws {
        let url = TemporaryDirectory.make().appendingPathComponent("fruits.ogdb")
        var expected: [String: Int64] = [:]
        do {
            let container = try PersistentContainer(model: TestModels.fruits, store: BinaryFileStore(url: url))
            let context = container.newContext()
            let names = ["", "é", "日本語のなまえ", "emoji 🍏🍎", "plain ascii name that is long enough", "a\u{0}b"]
            for index in 0..<1_300 {
                let name = "\(names[index % names.count]) \(index)"
                makeFruit(context, name, price: Int64(index))
                expected[name] = Int64(index)
            }
            try context.save()
            // Delete a whole chunk's worth and some rows past it, in a later frame.
            let fruits = try context.fetch(Fruit.fetchRequest()).sorted { $0.price < $1.price }
            for fruit in fruits[0..<512] + fruits[700..<710] {
                expected[fruit.name] = nil
                context.delete(fruit)
            }
            try context.save()
            // Update rows in several chunks, and insert past the end.
            for fruit in [fruits[600], fruits[1_100], fruits[1_299]] {
                fruit.price += 10_000
                expected[fruit.name] = fruit.price
            }
            for index in 1_300..<1_310 {
                makeFruit(context, "new \(index)", price: Int64(index))
                expected["new \(index)"] = Int64(index)
            }
            try context.save()
        }
        let container = try PersistentContainer(model: TestModels.fruits, store: BinaryFileStore(url: url))
        let fruits = try container.newContext().fetch(Fruit.fetchRequest())
        #expect(fruits.count == expected.count)
        #expect(Dictionary(uniqueKeysWithValues: fruits.map { ($0.name, $0.price) }) == expected)
    }

    @Test func asciiCheckAgreesWithTheDefinitionAtEveryLengthAndPosition() {
        for length in 0...40 {
            let ascii = [UInt8](repeating: 0x7F, count: length)
            ascii.withUnsafeBytes { #expect(ASCIIBytes.areASCII($0)) }
            for position in 0..<length {
                var bytes = ascii
                bytes[position] = 0x80
                bytes.withUnsafeBytes { #expect(!ASCIIBytes.areASCII($0), "length \(length) at \(position)") }
                // The String form, inline (up to 15 bytes) and on the heap.
                var text = String(repeating: "a", count: length)
                text.replaceSubrange(
                    text.index(text.startIndex, offsetBy: position)...text.index(text.startIndex, offsetBy: position),
                    with: "é")
                #expect(!ASCIIBytes.isASCII(text), "length \(length) at \(position)")
            }
            #expect(ASCIIBytes.isASCII(String(repeating: "\u{7F}", count: length)))
        }
    }
}
