import Foundation
import ObjectGraph

extension FuzzTarget {
    /// Small valid inputs to start fuzzing from, by file name: stores of ``FuzzModel/model``
    /// written by the library itself, so they follow the current formats.
    public var seeds: [(name: String, bytes: [UInt8])] {
        let model = FuzzModel.model
        let sample = FuzzModel.sampleSnapshot()
        switch self {
        case .jsonStore:
            return [
                ("empty-compact.json", StoreFileCodec.encodeJSONStore(StoreSnapshot(model: model), pretty: false)),
                ("sample-compact.json", StoreFileCodec.encodeJSONStore(sample, pretty: false)),
                ("sample-pretty.json", StoreFileCodec.encodeJSONStore(sample, pretty: true)),
            ]
        case .binaryHeader:
            let single = try! ManagedObjectModel(entities: [
                EntityDescription(name: "Note", attributes: [AttributeDescription(name: "body", type: .string)])
            ])
            return [
                ("fuzz-model.header", StoreFileCodec.encodeBinaryHeader(model)),
                ("single-entity.header", StoreFileCodec.encodeBinaryHeader(single)),
                ("no-entities.header", StoreFileCodec.encodeBinaryHeader(try! ManagedObjectModel(entities: []))),
            ]
        case .predicateFormat:
            return Self.predicateSeeds.map {
                ($0.name, Self.predicateInput(arguments: $0.arguments, format: $0.format))
            }
        case .fixture: return Self.fixtureSeeds.map { ($0.name, Array($0.json.utf8)) }
        case .binaryFrames:
            let frames = Self.sampleFrames()
            return [
                ("snapshot.frames", frames.snapshot),
                ("log.frames", frames.snapshot + frames.changes),
                ("changes.frames", frames.changes),
            ]
        }
    }

    /// A snapshot frame of the sample, then two saves: one inserting an item and updating the
    /// owner, one deleting the empty item and reserving tag keys.
    static func sampleFrames() -> (snapshot: [UInt8], changes: [UInt8]) {
        let sample = FuzzModel.sampleSnapshot()
        let snapshotFrame = Array(StoreFileCodec.encodeBinaryStore(sample).dropFirst(fuzzHeader.count))
        var afterInsert = sample
        var item = FuzzModel.emptyItem
        item.objectID = FuzzModel.item(3)
        item.values[0] = .string("third")
        item.values[4] = .int(42)
        var owner = FuzzModel.owner1
        owner.version += 1
        owner.values[1] = .objects([FuzzModel.item(1), FuzzModel.item(3)])
        item.values[13] = .object(owner.objectID)
        try! afterInsert.insert(item)
        var afterDelete = afterInsert
        afterDelete.reserveKeys(ofEntity: "Tag", below: 9)
        let insert = StoreChangeSet(inserted: [item], updated: [owner], deleted: [], snapshot: afterInsert)
        let delete = StoreChangeSet(
            inserted: [], updated: [], deleted: [FuzzModel.emptyItem.objectID], snapshot: afterDelete)
        return (
            snapshotFrame,
            StoreFileCodec.encodeBinaryChangeFrame(insert, previous: sample)
                + StoreFileCodec.encodeBinaryChangeFrame(delete, previous: afterInsert)
        )
    }
}
