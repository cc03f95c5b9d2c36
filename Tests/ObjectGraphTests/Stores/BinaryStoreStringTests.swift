import Foundation
import Testing

@testable import ObjectGraph

/// How the binary store reads strings: valid UTF-8 exactly as written, anything else as damage.
@Suite struct BinaryStoreStringTests {
    /// The reference store with the bytes of the name "apple" replaced by `replacement` (five
    /// bytes) wherever it was saved, and the frame checksums repaired, so that only the string
    /// is wrong; and where the first occurrence starts.
    private func storeWithAppleReplaced(by replacement: [UInt8]) throws -> (bytes: [UInt8], nameOffset: Int) {
        precondition(replacement.count == 5)
        let store = try BinaryReferenceStore.make()
        let name = try #require(store.bytes.offset(of: "apple", from: store.headerSize))
        var bytes = store.bytes
        // Every save that wrote the apple's row, so that the last one read has the new name.
        var next: Int? = name
        while let offset = next {
            bytes.replaceSubrange(offset..<(offset + 5), with: replacement)
            next = bytes.offset(of: "apple", from: offset + 5)
        }
        bytes =
            Array(bytes[..<store.headerSize])
            + StoreFileCodec.withFrameChecksumsRepaired(Array(bytes[store.headerSize...]))
        return (bytes, name)
    }

    @Test(
        arguments: [
            ("a truncated three-byte sequence", [0x61, 0x70, 0x70, 0xE3, 0x81]),
            ("an overlong encoding of NUL", [0x61, 0xC0, 0x80, 0x61, 0x61]),
            ("a UTF-16 surrogate", [0x61, 0xED, 0xA0, 0x80, 0x61]),
            ("a lone continuation byte", [0x80, 0x70, 0x70, 0x6C, 0x65]),
            ("a byte UTF-8 never uses", [0x61, 0x70, 0xFE, 0x6C, 0x65]),
        ] as [(String, [UInt8])])
    func invalidUTF8IsCorruptStoreAtTheValue(_ label: String, _ replacement: [UInt8]) throws {
        let (bytes, name) = try storeWithAppleReplaced(by: replacement)
        let error = try openingError(.binary, bytes)
        #expect(error.code == .corruptStore, "\(label)")
        #expect(error.byteOffset == name - 2, "the value's tag, before its length and bytes")
        #expect(error.message.contains("invalid UTF-8"))
    }

    @Test(
        arguments: [
            ("the replacement character itself", [0x61, 0xEF, 0xBF, 0xBD, 0x61], "a\u{FFFD}a"),
            ("a three-byte character", [0xE3, 0x82, 0x8A, 0x61, 0x61], "りaa"),
            ("a four-byte character", [0xF0, 0x9F, 0x8D, 0x8E, 0x21], "🍎!"),
            ("a combining accent", [0x65, 0xCC, 0x81, 0x65, 0x65], "e\u{301}ee"),
            ("NUL", [0x61, 0x00, 0x70, 0x6C, 0x65], "a\u{0}ple"),
        ] as [(String, [UInt8], String)])
    func validUTF8IsReadExactly(_ label: String, _ replacement: [UInt8], _ expected: String) throws {
        let (bytes, _) = try storeWithAppleReplaced(by: replacement)
        let url = FileStoreKind.binary.makeURL()
        try Data(bytes).write(to: url)
        let container = try PersistentContainer(model: TestModels.fruits, store: BinaryFileStore(url: url))
        let names = try container.newContext().fetch(Fruit.fetchRequest()).map(\.name)
        #expect(names.contains { Array($0.utf8) == Array(expected.utf8) }, "\(label): \(names)")
        #expect(!names.contains("apple"))
    }
}
