import Foundation
import Testing

@testable import ObjectGraph

/// Damaged binary store files: each gives a typed error naming the file and the byte offset, or
/// (a torn tail) a recovery that keeps exactly the saves before the damage. Nothing crashes.
@Suite struct BinaryStoreCorruptionTests {
    let url = URL(fileURLWithPath: "/damaged/fruits.ogdb")

    func replay(_ bytes: [UInt8]) throws -> BinaryStoreReplay {
        try BinaryStoreReplay(bytes: bytes, url: url, model: TestModels.fruits)
    }

    func replayError(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) throws -> PersistenceError {
        let error = #expect(throws: PersistenceError.self, sourceLocation: sourceLocation) { try replay(bytes) }
        let thrown = try #require(error, sourceLocation: sourceLocation)
        #expect(thrown.fileURL == url, sourceLocation: sourceLocation)
        return thrown
    }

    // MARK: - Truncation

    @Test func referenceStoreIsAnAppendOnlyLogOfItsSaves() throws {
        let store = try BinaryReferenceStore.make()
        for state in store.states { #expect(store.bytes.starts(with: state)) }
        #expect(store.frames.count == 4)
        #expect(store.frames.allSatisfy { !$0.isEmpty })
        for (index, state) in store.states.enumerated() {
            let url = FileStoreKind.binary.makeURL()
            try Data(state).write(to: url)
            #expect(try fruitNames(.binary, at: url).sorted() == BinaryReferenceStore.fruitNames[index])
            #expect(Array(try Data(contentsOf: url)) == state, "a valid store is opened as it is")
        }
    }

    @Test func truncationAtEveryOffsetIsATypedErrorOrKeepsExactlyTheSavesBeforeTheCut() throws {
        let store = try BinaryReferenceStore.make()
        let expected = try store.states.map { contents(of: try replay($0).snapshot) }
        let header = store.headerSize
        for cut in 0..<store.bytes.count {
            let bytes = Array(store.bytes[..<cut])
            guard cut >= header else {
                let error = try replayError(bytes)
                switch cut {
                case 0:
                    #expect(error.code == .corruptStore && error.byteOffset == 0 && error.message.contains("empty"))
                case 1..<8:
                    #expect(error.code == .unsupportedFormat && error.message.contains("not a binary store"))
                case 8..<20:
                    #expect(error.code == .corruptStore && error.byteOffset == cut, "cut at \(cut): \(error)")
                    #expect(error.message.contains("the header is truncated"))
                default:
                    #expect(error.code == .corruptStore && error.byteOffset == 12, "cut at \(cut): \(error)")
                    #expect(error.message.contains("schema bytes, past the end of the file"))
                }
                continue
            }
            // A cut inside the first frame (written atomically with the header, so never torn by
            // a crash) is damage, never an empty store.
            if cut < store.frames[0].upperBound {
                let error = try replayError(bytes)
                #expect(error.code == .corruptStore && error.byteOffset == header, "cut at \(cut): \(error)")
                #expect(error.message.contains("first frame"), "cut at \(cut)")
                continue
            }
            // The saves that survive are those whose frame ends at or before the cut.
            let surviving = store.frames.lastIndex { $0.upperBound <= cut }
            let validEnd = surviving.map { store.frames[$0].upperBound } ?? header
            let replay = try replay(bytes)
            #expect(replay.validEnd == validEnd, "cut at \(cut)")
            #expect(replay.hasTornTail == (cut != validEnd), "cut at \(cut)")
            #expect(contents(of: replay.snapshot) == surviving.map { expected[$0] } ?? expected[0], "cut at \(cut)")
        }
    }

    @Test(arguments: 1...3)
    func tornLastSaveIsCutOffOnOpenKeepingTheSavesBefore(save: Int) throws {
        let store = try BinaryReferenceStore.make()
        let frame = store.frames[save]
        let url = FileStoreKind.binary.makeURL()
        try Data(store.bytes[..<(frame.lowerBound + frame.count / 2)]).write(to: url)
        #expect(try fruitNames(.binary, at: url).sorted() == BinaryReferenceStore.fruitNames[save - 1])
        #expect(Array(try Data(contentsOf: url)) == store.states[save - 1], "the torn frame is cut off")
        // The recovered store takes new saves where the cut left it.
        do {
            let container = try PersistentContainer(model: TestModels.fruits, store: BinaryFileStore(url: url))
            let context = container.newContext()
            makeFruit(context, "kiwi")
            try context.save()
        }
        let names = try fruitNames(.binary, at: url).sorted()
        #expect(names == (BinaryReferenceStore.fruitNames[save - 1] + ["kiwi"]).sorted())
    }

    // MARK: - Header

    @Test func everyBitFlipInTheHeaderIsATypedErrorAtTheDamage() throws {
        let store = try BinaryReferenceStore.make()
        let header = store.headerSize
        let checksumOffset = header - 4
        for bit in 0..<(header * 8) {
            var bytes = store.bytes
            bytes[bit / 8] ^= 1 << (bit % 8)
            let error = try replayError(bytes)
            let byte = bit / 8
            switch byte {
            case 0..<8:
                #expect(error.code == .unsupportedFormat && error.byteOffset == 0, "bit \(bit): \(error)")
            case 10..<12 where bytes[10] > 1 || bytes[11] > 0:
                let version = Int(bytes[10]) | Int(bytes[11]) << 8
                #expect(error.code == .unsupportedFormat, "bit \(bit): \(error)")
                #expect(error.message.contains("needs format version \(version)"), "bit \(bit): \(error)")
            case 12..<16:
                let declared = bytes[12..<16].reversed().reduce(0) { $0 << 8 | Int($1) }
                #expect(error.code == .corruptStore, "bit \(bit): \(error)")
                if 16 + declared + 4 > bytes.count {
                    #expect(error.byteOffset == 12 && error.message.contains("schema bytes"), "bit \(bit): \(error)")
                } else {
                    #expect(error.byteOffset == 16 + declared && error.message.contains("checksum"), "bit \(bit)")
                }
            default:
                // The write version, a read version of 0, the schema or the checksum itself.
                #expect(error.code == .corruptStore, "bit \(bit): \(error)")
                #expect(error.byteOffset == checksumOffset, "bit \(bit): \(error)")
                #expect(error.message.contains("the header checksum does not match"), "bit \(bit): \(error)")
            }
        }
    }

    @Test func emptyFileIsCorruptStoreAtByteZero() throws {
        let error = try openingError(.binary, [])
        #expect(error.code == .corruptStore)
        #expect(error.byteOffset == 0)
        #expect(error.message.contains("the file is empty"))
    }

    @Test func truncatedHeaderIsCorruptStoreAtTheSchemaSize() throws {
        let store = try BinaryReferenceStore.make()
        let error = try openingError(.binary, Array(store.bytes[..<(store.headerSize / 2)]))
        #expect(error.code == .corruptStore)
        #expect(error.byteOffset == 12)
        #expect(error.message.contains("\(store.headerSize - 20) schema bytes, past the end of the file"))
        let short = try openingError(.binary, Array(store.bytes[..<14]))
        #expect(short.code == .corruptStore)
        #expect(short.byteOffset == 14)
        #expect(short.message.contains("the header is truncated"))
    }

    @Test func wrongMagicIsUnsupportedFormat() throws {
        let store = try BinaryReferenceStore.make()
        let error = try openingError(.binary, store.bytes.replacing(0..<8, with: "OGRAPHDX"))
        #expect(error.code == .unsupportedFormat)
        #expect(error.byteOffset == 0)
        #expect(error.message.contains("not a binary store"))
    }

    @Test func jsonStoreOpenedAsBinaryIsUnsupportedFormat() throws {
        let url = FileStoreKind.json.makeURL()
        try seed(.json, at: url)
        let error = try openingError(.binary, Array(try Data(contentsOf: url)))
        #expect(error.code == .unsupportedFormat)
        #expect(error.message.contains("not a binary store"))
    }

    @Test func futureReadVersionIsUnsupportedFormatNamingTheVersion() throws {
        let store = try BinaryReferenceStore.make()
        var bytes = store.bytes
        bytes[10] = 2
        bytes = StoreFileCodec.withHeaderChecksumRepaired(bytes)
        let error = try openingError(.binary, bytes)
        #expect(error.code == .unsupportedFormat)
        #expect(error.message.contains("needs format version 2"))
        #expect(error.message.contains("reads up to 1"))
    }

    @Test func futureWriteVersionThatOlderReadersCanReadOpens() throws {
        let store = try BinaryReferenceStore.make()
        var bytes = store.bytes
        bytes[8] = 7
        bytes = StoreFileCodec.withHeaderChecksumRepaired(bytes)
        let url = FileStoreKind.binary.makeURL()
        try Data(bytes).write(to: url)
        #expect(try fruitNames(.binary, at: url).sorted() == ["apple", "fig"])
    }

    // MARK: - Frames

    @Test(arguments: [1, Int(UInt32.max)])
    func frameLengthPastTheEndIsATornTailThatIsCut(excess: Int) throws {
        let store = try BinaryReferenceStore.make()
        let last = store.frames[3]
        var bytes = store.bytes
        let length = UInt32(truncatingIfNeeded: min(last.count - 8 + excess, Int(UInt32.max)))
        withUnsafeBytes(of: length.littleEndian) {
            bytes.replaceSubrange(last.lowerBound..<(last.lowerBound + 4), with: $0)
        }
        let url = FileStoreKind.binary.makeURL()
        try Data(bytes).write(to: url)
        #expect(try fruitNames(.binary, at: url).sorted() == BinaryReferenceStore.fruitNames[2])
        #expect(Array(try Data(contentsOf: url)) == store.states[2])
    }

    @Test func partialFrameAppendedByACrashIsCut() throws {
        let store = try BinaryReferenceStore.make()
        let frame = Array(store.bytes[store.frames[3]])
        let url = FileStoreKind.binary.makeURL()
        try Data(store.bytes + frame.prefix(frame.count - 1)).write(to: url)
        #expect(try fruitNames(.binary, at: url).sorted() == BinaryReferenceStore.fruitNames[3])
        #expect(Array(try Data(contentsOf: url)) == store.bytes)
    }

    @Test func checksumMismatchInTheMiddleIsCorruptStoreAndTheFileIsNotCut() throws {
        let store = try BinaryReferenceStore.make()
        let damaged = store.frames[2]
        var bytes = store.bytes
        bytes[damaged.lowerBound + 8 + (damaged.count - 8) / 2] ^= 0x40
        let error = try openingError(.binary, bytes)
        #expect(error.code == .corruptStore)
        #expect(error.byteOffset == damaged.lowerBound)
        #expect(error.message.contains("checksum does not match, and valid frames follow it"))
    }

    @Test func damagedLengthInTheMiddleIsCorruptStoreAndTheFileIsNotCut() throws {
        let store = try BinaryReferenceStore.make()
        let damaged = store.frames[2]
        var bytes = store.bytes
        bytes[damaged.lowerBound] ^= 0x01
        // A damaged length moves the next frame out of sight; the replay scans for valid frames
        // after a bad one, so this is still damage in the middle, and nothing is cut.
        let error = try openingError(.binary, bytes)
        #expect(error.code == .corruptStore)
        #expect(error.byteOffset == damaged.lowerBound)
    }

    @Test func invalidUTF8InAStringIsCorruptStoreAtTheValue() throws {
        let store = try BinaryReferenceStore.make()
        let name = try #require(store.bytes.offset(of: "apple", from: store.headerSize))
        var bytes = store.bytes
        bytes[name + 1] = 0xFF
        bytes =
            Array(bytes[..<store.headerSize])
            + StoreFileCodec.withFrameChecksumsRepaired(
                Array(bytes[store.headerSize...]))
        let error = try openingError(.binary, bytes)
        #expect(error.code == .corruptStore)
        #expect(error.byteOffset == name - 2, "the value's tag, before its length and bytes")
        #expect(error.message.contains("invalid UTF-8"))
    }

    @Test func relationshipToAMissingObjectIsCorruptStoreNamingIt() throws {
        let store = try BinaryReferenceStore.make()
        let snapshot = StoreSnapshot(model: TestModels.fruits)
        let ghost = StoreRecord(
            objectID: ObjectID(entityName: "Fruit", key: 50), version: 1,
            values: [.string("ghost"), .int(1), .object(ObjectID(entityName: "Basket", key: 99)), .objects([])])
        let frame = BinaryStoreFrame.encodeChanges(
            StoreChangeSet(inserted: [ghost], updated: [], deleted: [], snapshot: snapshot), previous: snapshot)
        let error = try openingError(.binary, store.bytes + frame)
        #expect(error.code == .corruptStore)
        #expect(error.message.contains("Fruit/50.basket refers to Basket/99, which is not in the store"))
    }

    @Test func nullInARequiredAttributeIsCorruptStoreAtTheValue() throws {
        // Typed accessors trap on a null in a required attribute: the loader must refuse it.
        let store = try BinaryReferenceStore.make()
        let snapshot = StoreSnapshot(model: TestModels.fruits)
        let nameless = StoreRecord(
            objectID: ObjectID(entityName: "Fruit", key: 50), version: 1,
            values: [.null, .int(1), .null, .objects([])])
        let frame = BinaryStoreFrame.encodeChanges(
            StoreChangeSet(inserted: [nameless], updated: [], deleted: [], snapshot: snapshot), previous: snapshot)
        let error = try openingError(.binary, store.bytes + frame)
        #expect(error.code == .corruptStore)
        // The frame's header, then its kind, the operation, the entity, the key and the version.
        #expect(error.byteOffset == store.bytes.count + 8 + 5)
        #expect(error.message.contains("Fruit.name is required but has no value"))
    }

    @Test func unknownEntityNumberIsCorruptStoreAtTheOperation() throws {
        let store = try BinaryReferenceStore.make()
        let payload: [UInt8] = [
            BinaryStoreFrame.Kind.changes.rawValue, BinaryStoreFrame.Operation.delete.rawValue, 9, 1,
        ]
        var frame: [UInt8] = []
        withUnsafeBytes(of: UInt32(payload.count).littleEndian) { frame += $0 }
        withUnsafeBytes(of: CRC32C.checksum(payload).littleEndian) { frame += $0 }
        let error = try openingError(.binary, store.bytes + frame + payload)
        #expect(error.code == .corruptStore)
        #expect(error.byteOffset == store.bytes.count + 9)
        #expect(error.message.contains("entity number 9 is not in the schema"))
    }
}
