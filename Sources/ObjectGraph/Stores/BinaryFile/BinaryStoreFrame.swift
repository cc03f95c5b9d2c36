import Foundation

/// The binary store's frames: each save appends one length-prefixed, checksummed frame of
/// operations. The grammar is in Docs/StoreFormats.md.
enum BinaryStoreFrame {
    static let headerSize = 8
    /// The largest payload a frame may declare (1 GiB).
    static let maximumPayload = 1 << 30

    enum Kind: UInt8 {
        /// The whole state, written by compaction.
        case snapshot = 1
        /// One save's changes.
        case changes = 2
    }

    enum Operation: UInt8 {
        case put = 1
        case delete = 2
        case nextKey = 3
        /// Every object of the entity is gone (a delete of everything): one record instead of
        /// one `delete` per object. It comes first in its frame, before the frame's puts.
        case deleteAll = 4
        /// The store's metadata, whole (replacing what came before): a count, then that many
        /// length-prefixed UTF-8 key and value pairs in key order. It has no entity number and
        /// is written only when the metadata changes (and in a snapshot frame when there is any).
        case metadata = 5
    }

    enum Tag: UInt8 {
        case null = 0, `false`, `true`, int, float, double, string, decimal, date, data, uuid, url, object, objects
        /// A to-one or to-many relationship that holds objects of its destination's sub-entities:
        /// each object with its entity's number (`BinaryStoreFrame+Subentities.swift`).
        case entityObject, entityObjects
    }

    /// A frame holding the whole snapshot.
    static func encodeSnapshot(_ snapshot: StoreSnapshot) -> [UInt8] {
        var writer = beginFrame(.snapshot, capacity: snapshot.count * 64)
        if !snapshot.metadata.isEmpty { writeMetadata(snapshot.metadata, into: &writer) }
        for info in snapshot.model.infos {
            let table = snapshot.tables[info.index]
            writeNextKey(table.nextKey, entity: info.index, into: &writer)
            table.forEach { key, row in
                writePut(
                    key: key, version: row.version, values: row.values, entity: info, model: snapshot.model,
                    into: &writer)
            }
        }
        return endFrame(writer)
    }

    /// A frame holding one save's changes.
    static func encodeChanges(_ changes: StoreChangeSet, previous: StoreSnapshot) -> [UInt8] {
        let model = changes.snapshot.model
        var writer = beginFrame(.changes, capacity: (changes.inserted.count + changes.updated.count) * 64 + 16)
        if changes.snapshot.metadata != previous.metadata { writeMetadata(changes.snapshot.metadata, into: &writer) }
        var emptied: [Bool] = []
        if !changes.emptiedEntityNames.isEmpty {
            emptied = Array(repeating: false, count: model.infos.count)
            for name in changes.emptiedEntityNames.sorted() {
                guard let info = model.info(named: name) else { continue }
                emptied[info.index] = true
                writer.u8(Operation.deleteAll.rawValue)
                writer.varint(UInt64(info.index))
            }
        }
        for record in changes.inserted + changes.updated {
            guard let info = model.info(named: record.objectID.entityName) else { continue }
            writePut(
                key: record.objectID.key, version: record.version, values: record.values, entity: info, model: model,
                into: &writer)
        }
        // The objects of emptied entities are not listed here (their entity's deleteAll record
        // covers them). Deleted IDs come in runs of one entity: look its name up once per run.
        var run: (name: String, info: EntityInfo?)? = nil
        for id in changes.individuallyDeleted {
            if run?.name != id.entityName { run = (id.entityName, model.info(named: id.entityName)) }
            guard let info = run?.info else { continue }
            // The entity's deleteAll record covers it.
            if !emptied.isEmpty && emptied[info.index] { continue }
            writer.u8(Operation.delete.rawValue)
            writer.varint(UInt64(info.index))
            writer.varint(UInt64(id.key))
        }
        for info in model.infos where changes.snapshot.tables[info.index].nextKey != previous.tables[info.index].nextKey
        {
            writeNextKey(changes.snapshot.tables[info.index].nextKey, entity: info.index, into: &writer)
        }
        return endFrame(writer)
    }

    /// A `metadata` operation holding all of `metadata`.
    private static func writeMetadata(_ metadata: [String: String], into writer: inout ByteWriter) {
        writer.u8(Operation.metadata.rawValue)
        writer.varint(UInt64(metadata.count))
        for key in metadata.keys.sorted() {
            writer.lengthPrefixed(key.utf8)
            writer.lengthPrefixed((metadata[key] ?? "").utf8)
        }
    }

    private static func beginFrame(_ kind: Kind, capacity: Int) -> ByteWriter {
        var writer = ByteWriter(capacity: headerSize + 1 + capacity)
        writer.u32(0)
        writer.u32(0)
        writer.u8(kind.rawValue)
        return writer
    }

    private static func endFrame(_ writer: ByteWriter) -> [UInt8] {
        var writer = writer
        let payloadSize = writer.bytes.count - headerSize
        writer.patchU32(UInt32(payloadSize), at: 0)
        let checksum = writer.bytes.withUnsafeBytes {
            CRC32C.checksum(UnsafeRawBufferPointer(rebasing: $0[headerSize...]))
        }
        writer.patchU32(checksum, at: 4)
        return writer.bytes
    }

    private static func writeNextKey(_ nextKey: Int64, entity: Int, into writer: inout ByteWriter) {
        writer.u8(Operation.nextKey.rawValue)
        writer.varint(UInt64(entity))
        writer.varint(UInt64(nextKey))
    }

    private static func writePut(
        key: Int64, version: Int64, values: [StoreValue], entity: EntityInfo, model: ManagedObjectModel,
        into writer: inout ByteWriter
    ) {
        writer.u8(Operation.put.rawValue)
        writer.varint(UInt64(entity.index))
        writer.varint(UInt64(key))
        writer.varint(UInt64(bitPattern: version))
        for (slot, value) in values.enumerated() {
            if slot >= entity.attributeCount,
                writeSubentityReferences(
                    value, relationship: entity.relationship(at: slot), model: model, into: &writer)
            {
                continue
            }
            write(value, into: &writer)
        }
    }

    private static func write(_ value: StoreValue, into writer: inout ByteWriter) {
        switch value {
        case .null: writer.u8(Tag.null.rawValue)
        case .bool(let flag): writer.u8(flag ? Tag.true.rawValue : Tag.false.rawValue)
        case .int(let number):
            writer.u8(Tag.int.rawValue)
            writer.zigzag(number)
        case .float(let number):
            writer.u8(Tag.float.rawValue)
            writer.u32(number.bitPattern)
        case .double(let number):
            writer.u8(Tag.double.rawValue)
            writer.u64(number.bitPattern)
        case .string(let text):
            writer.u8(Tag.string.rawValue)
            writer.lengthPrefixed(text.utf8)
        case .decimal(let number):
            writer.u8(Tag.decimal.rawValue)
            writer.lengthPrefixed(number.description.utf8)
        case .date(let date):
            writer.u8(Tag.date.rawValue)
            writer.u64(date.timeIntervalSinceReferenceDate.bitPattern)
        case .data(let data):
            writer.u8(Tag.data.rawValue)
            writer.lengthPrefixed(data)
        case .uuid(let uuid):
            writer.u8(Tag.uuid.rawValue)
            withUnsafeBytes(of: uuid.uuid) { writer.bytes.append(contentsOf: $0) }
        case .url(let url):
            writer.u8(Tag.url.rawValue)
            writer.lengthPrefixed(url.absoluteString.utf8)
        case .object(let id):
            writer.u8(Tag.object.rawValue)
            writer.varint(UInt64(id.key))
        case .objects(let ids):
            writer.u8(Tag.objects.rawValue)
            writer.varint(UInt64(ids.count))
            for id in ids { writer.varint(UInt64(id.key)) }
        }
    }
}
