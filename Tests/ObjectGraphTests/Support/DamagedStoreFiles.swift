import Foundation
import Testing

@testable import ObjectGraph

/// A binary store built save by save through a real container, with the file's bytes after each
/// step, for corrupting and replaying.
struct BinaryReferenceStore {
    /// The file's bytes after it was created (index 0) and after each of the three saves.
    let states: [[UInt8]]
    /// The header's size.
    let headerSize: Int

    /// The fruit names after creation and after each save.
    static let fruitNames: [[String]] = [[], ["apple", "pear"], ["apple", "fig", "pear"], ["apple", "fig"]]

    /// The whole file, after the last save.
    var bytes: [UInt8] { states.last! }

    /// Where each frame starts and ends: frame 0 is the empty snapshot written at creation,
    /// frame `n` the one save `n` appended.
    var frames: [Range<Int>] {
        zip([headerSize] + states.dropLast().map(\.count), states.map(\.count)).map { $0..<$1 }
    }

    /// Saves a basket with an apple and a pear; then a fig with a tag, and an owner for the
    /// basket; then deletes the pear and reprices the apple.
    static func make() throws -> BinaryReferenceStore {
        let url = FileStoreKind.binary.makeURL()
        var states: [[UInt8]] = []
        func record() throws { states.append(Array(try Data(contentsOf: url))) }
        do {
            let container = try PersistentContainer(model: TestModels.fruits, store: BinaryFileStore(url: url))
            try record()
            let context = container.newContext()
            let basket = Basket(context: context)
            basket.label = "kitchen"
            let apple = makeFruit(context, "apple", price: 120)
            apple.basket = basket
            let pear = makeFruit(context, "pear", price: 80)
            pear.basket = basket
            try context.save()
            try record()
            let fig = makeFruit(context, "fig", price: 300)
            fig.basket = basket
            let tag = Tag(context: context)
            tag.title = "sweet"
            fig.tags = [tag]
            let owner = Owner(context: context)
            owner.name = "ann"
            owner.basket = basket
            try context.save()
            try record()
            context.delete(pear)
            apple.price = 130
            try context.save()
            try record()
        }
        let headerSize = try states[0].withUnsafeBytes { try BinaryStoreHeader.decode($0, url: url).size }
        return BinaryReferenceStore(states: states, headerSize: headerSize)
    }
}

/// A store file's contents as comparable lines: each entity's next key, then each record with
/// its version and values.
func contents(of snapshot: StoreSnapshot) -> [String] {
    var lines: [String] = []
    for entity in snapshot.model.entities {
        lines.append("\(entity.name) next key \(snapshot.nextKey(ofEntity: entity.name))")
        snapshot.forEachRecord(ofEntity: entity.name) { lines.append("\($0.objectID) v\($0.version) \($0.values)") }
    }
    return lines
}

/// Writes `bytes` as a store file of `kind`, expects opening it in a container to throw, checks
/// that the failed open left the file as it was, and returns the error.
func openingError(
    _ kind: FileStoreKind, _ bytes: [UInt8], url: URL? = nil, sourceLocation: SourceLocation = #_sourceLocation
) throws -> PersistenceError {
    let url = url ?? kind.makeURL()
    try Data(bytes).write(to: url)
    let error = #expect(throws: PersistenceError.self, sourceLocation: sourceLocation) {
        _ = try PersistentContainer(model: TestModels.fruits, store: kind.makeStore(at: url))
    }
    #expect(
        Array(try Data(contentsOf: url)) == bytes, "a failed open must leave the file as it was",
        sourceLocation: sourceLocation)
    let thrown = try #require(error, sourceLocation: sourceLocation)
    if thrown.code != .modelMismatch {
        #expect(thrown.fileURL == url, "the error names the file", sourceLocation: sourceLocation)
        #expect(thrown.message.contains(url.path), "the message names the file", sourceLocation: sourceLocation)
    }
    return thrown
}

extension Array where Element == UInt8 {
    /// The offset of the first occurrence of `text`'s UTF-8 bytes.
    func offset(of text: String, from start: Int = 0) -> Int? {
        let needle = Array(text.utf8)
        guard needle.count <= count else { return nil }
        return (start...(count - needle.count)).first { self[$0..<($0 + needle.count)].elementsEqual(needle) }
    }

    /// A copy with the bytes at `range` replaced by `text`'s UTF-8 bytes.
    func replacing(_ range: Range<Int>, with text: String) -> [UInt8] {
        var copy = self
        copy.replaceSubrange(range, with: Array(text.utf8))
        return copy
    }
}
