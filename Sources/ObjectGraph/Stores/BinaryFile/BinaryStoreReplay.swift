import Foundation

/// Reading a binary store: the header, then every frame in order. A damaged frame at the end of
/// the file (a crash in the middle of an append) is a torn tail: it is reported so that the store
/// can cut it off, keeping every frame before it. A damaged frame followed by a valid one is
/// corruption in the middle of the log, and an error: nothing is cut.
struct BinaryStoreReplay {
    var snapshot: StoreSnapshot
    /// The offset just past the last valid frame.
    var validEnd: Int
    /// Whether bytes after `validEnd` were found and must be cut.
    var hasTornTail: Bool
    /// An estimate of the bytes a compacted file would take.
    var liveBytes: Int
    var headerSize: Int

    init(bytes: [UInt8], url: URL, model: ManagedObjectModel) throws {
        var result: BinaryStoreReplay?
        try bytes.withUnsafeBytes { raw in
            let (schema, headerSize) = try BinaryStoreHeader.decode(raw, url: url)
            try StoreSchema.check(schema, against: model)
            let infos = schema.map { model.info(named: $0.name)! }
            let plans = infos.map(SlotPlan.plans)
            var snapshot = StoreSnapshot(model: model)
            var offset = headerSize
            var liveBytes = headerSize
            var hasTornTail = false
            // Every file this library writes starts with a snapshot frame; none at all means the
            // file was cut short.
            guard offset < raw.count else { throw PersistenceError.damagedFirstFrame(url, offset: offset) }
            while offset < raw.count {
                guard let payload = Self.validPayload(raw, at: offset) else {
                    // The first frame is written with the header in one atomic whole-file write,
                    // so a crash never tears it: damage there is corruption, never a torn tail.
                    if offset == headerSize { throw PersistenceError.damagedFirstFrame(url, offset: offset) }
                    if Self.validFrameExists(raw, after: offset) {
                        throw PersistenceError.corruptFile(
                            url, offset: offset, "a frame's checksum does not match, and valid frames follow it")
                    }
                    hasTornTail = true
                    break
                }
                var reader = ByteReader(buffer: payload, base: offset + 8, url: url)
                try Self.apply(&reader, infos: infos, plans: plans, to: &snapshot, liveBytes: &liveBytes)
                offset += 8 + payload.count
            }
            if let (source, key, target) = snapshot.danglingReferences().first {
                throw PersistenceError.corruptFile(
                    url, offset: nil, "\(source).\(key) refers to \(target), which is not in the store")
            }
            result = BinaryStoreReplay(
                snapshot: snapshot, validEnd: offset, hasTornTail: hasTornTail, liveBytes: liveBytes,
                headerSize: headerSize)
        }
        self = result!
    }

    private init(snapshot: StoreSnapshot, validEnd: Int, hasTornTail: Bool, liveBytes: Int, headerSize: Int) {
        self.snapshot = snapshot
        self.validEnd = validEnd
        self.hasTornTail = hasTornTail
        self.liveBytes = liveBytes
        self.headerSize = headerSize
    }

    /// Whether a whole, valid frame starts anywhere after `offset`: a damaged frame followed by
    /// one is damage in the middle of the log (even when its damaged length hides where the next
    /// frame starts), not a torn tail. Only runs when a frame is bad.
    ///
    /// Every later byte is a candidate, and each candidate's checksum covers its declared length:
    /// crafted filler could make that quadratic. So the bytes checksummed are bounded by
    /// ``resynchronisationBudget(remaining:)``; past it the answer is yes (the safe answer: the
    /// file is reported damaged and nothing is cut).
    static func validFrameExists(_ raw: UnsafeRawBufferPointer, after offset: Int) -> Bool {
        var budget = resynchronisationBudget(remaining: raw.count - offset)
        var candidate = offset + 1
        while candidate + BinaryStoreFrame.headerSize < raw.count {
            if let length = declaredLength(raw, at: candidate), candidate + 8 + length <= raw.count,
                BinaryStoreFrame.Kind(rawValue: raw[candidate + 8]) != nil
            {
                budget -= length
                if budget < 0 || validPayload(raw, at: candidate) != nil { return true }
            }
            candidate += 1
        }
        return false
    }

    /// The bytes a search for a valid frame may checksum after a damaged one: eight times the
    /// rest of the file, and at least 16 MiB.
    static func resynchronisationBudget(remaining: Int) -> Int {
        Swift.max(16 << 20, 8 * remaining)
    }

    static func declaredLength(_ raw: UnsafeRawBufferPointer, at offset: Int) -> Int? {
        guard raw.count - offset >= BinaryStoreFrame.headerSize else { return nil }
        let length = Int(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
        return length >= 1 && length <= BinaryStoreFrame.maximumPayload ? length : nil
    }

    /// The payload of the frame at `offset` if it is whole and its checksum matches.
    static func validPayload(_ raw: UnsafeRawBufferPointer, at offset: Int) -> UnsafeRawBufferPointer? {
        guard let length = declaredLength(raw, at: offset), offset + 8 + length <= raw.count else { return nil }
        let stored = UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self))
        let payload = UnsafeRawBufferPointer(rebasing: raw[(offset + 8)..<(offset + 8 + length)])
        return CRC32C.checksum(payload) == stored ? payload : nil
    }

    /// Applies one frame's operations. A frame whose checksum matched but whose contents do not
    /// follow the format is corruption, not a torn write.
    private static func apply(
        _ reader: inout ByteReader, infos: [EntityInfo], plans: [[SlotPlan]], to snapshot: inout StoreSnapshot,
        liveBytes: inout Int
    ) throws {
        guard BinaryStoreFrame.Kind(rawValue: try reader.u8()) != nil else {
            throw reader.error("unknown frame kind", at: 0)
        }
        while !reader.isAtEnd {
            let start = reader.position
            guard let operation = BinaryStoreFrame.Operation(rawValue: try reader.u8()) else {
                throw reader.error("unknown operation", at: start)
            }
            if operation == .metadata {
                snapshot.metadata = try readMetadata(&reader)
                continue
            }
            let entity = Int(clamping: try reader.varint())
            guard entity < infos.count else {
                throw reader.error("entity number \(entity) is not in the schema", at: start)
            }
            let info = infos[entity]
            switch operation {
            case .put:
                let key = try readKey(&reader)
                let version = Int64(bitPattern: try reader.varint())
                // Appended into a fresh array of the right size (writing into a copy of the
                // defaults copied and released every default value first;
                // `Array(unsafeUninitializedCapacity:)` was not specialized, and looked up the
                // array's generic metadata per row).
                let slots = plans[entity]
                var values: [StoreValue] = []
                values.reserveCapacity(slots.count)
                for slot in slots.indices {
                    values.append(try readValue(&reader, slot: slot, plan: slots[slot], of: info, infos: infos))
                }
                let size = reader.position - start
                guard snapshot.keySpaceAdmits(key, table: info.index) else {
                    throw reader.error(
                        "\(info.name)/\(key) leaves the store's keys sparser than the limit "
                            + "(\(StoreSnapshot.keySpaceAllowance) chunks of 512 keys, or one per row)", at: start)
                }
                if !snapshot.tables[info.index].contains(key) {
                    liveBytes += size
                }
                snapshot.tables[info.index].append(EntityTable.Row(version: version, values: values), forKey: key)
            case .delete:
                let key = try readKey(&reader)
                let table = snapshot.tables[info.index]
                guard table[key] != nil else {
                    throw reader.error("deletes \(info.name)/\(key), which does not exist", at: start)
                }
                liveBytes -= liveBytes / max(1, snapshot.count)
                snapshot.tables[info.index].set(nil, forKey: key)
            case .deleteAll:
                let count = snapshot.tables[info.index].count
                let total = snapshot.count
                if total > 0 { liveBytes -= Int((Double(liveBytes) * Double(count) / Double(total)).rounded()) }
                snapshot.tables[info.index].removeAll()
            case .metadata:
                break  // read above: it has no entity number
            case .nextKey:
                let next = Int64(clamping: try reader.varint())
                guard next >= 1, next <= EntityTable.maxKey + 1 else {
                    throw reader.error("next key out of range", at: start)
                }
                snapshot.tables[info.index].nextKey = max(snapshot.tables[info.index].nextKey, next)
            }
        }
    }

    private static func readMetadata(_ reader: inout ByteReader) throws -> [String: String] {
        let start = reader.position
        let count = try reader.varint()
        guard count <= UInt64(reader.buffer.count - reader.position) else {
            throw reader.error("metadata count out of range", at: start)
        }
        var metadata: [String: String] = [:]
        for _ in 0..<count {
            let key = String(decoding: try reader.lengthPrefixed(), as: UTF8.self)
            metadata[key] = String(decoding: try reader.lengthPrefixed(), as: UTF8.self)
        }
        return metadata
    }

    /// An object of a relationship's destination or of one of its sub-entities, with its entity
    /// number (``BinaryStoreFrame/writeSubentityReferences(_:relationship:model:into:)``).
    private static func readSubentityReference(
        _ reader: inout ByteReader, slot: Int, of info: EntityInfo, infos: [EntityInfo]
    ) throws -> ObjectID {
        let start = reader.position
        let entity = Int(clamping: try reader.varint())
        let relationship = info.relationship(at: slot)
        guard entity < infos.count, relationship.accepts(entityNamed: infos[entity].name) else {
            throw reader.error(
                "\(info.name).\(relationship.description.name) refers to an object of an entity that is not "
                    + "\(relationship.description.destination) or one of its sub-entities", at: start)
        }
        return ObjectID(entityName: infos[entity].name, key: try readKey(&reader))
    }

    private static func readKey(_ reader: inout ByteReader) throws -> Int64 {
        let start = reader.position
        let key = try reader.varint()
        guard key >= 1, key <= UInt64(EntityTable.maxKey) else {
            throw reader.error("object key out of range", at: start)
        }
        return Int64(key)
    }

    /// How to read one slot of an entity's rows: its attribute type, or its relationship's
    /// destination. Taken from the model once per open, not once per value (an
    /// `AttributeDescription` is a large struct, copied with its strings on every access).
    /// A plan holds no reference (copying one retains nothing); a relationship's destination is
    /// looked up when a value is read.
    enum SlotPlan {
        case attribute(AttributeType, isOptional: Bool)
        case toOne
        case toMany

        /// The plan of every slot of `info`'s rows, in slot order.
        static func plans(_ info: EntityInfo) -> [SlotPlan] {
            (0..<info.propertyCount).map { slot in
                guard info.isAttribute(slot) else {
                    return info.relationship(at: slot).description.isToMany ? .toMany : .toOne
                }
                let attribute = info.attribute(at: slot)
                return .attribute(attribute.type, isOptional: attribute.isOptional)
            }
        }
    }

    private static func readValue(
        _ reader: inout ByteReader, slot: Int, plan: SlotPlan, of info: EntityInfo, infos: [EntityInfo]
    ) throws -> StoreValue {
        let start = reader.position
        guard let tag = BinaryStoreFrame.Tag(rawValue: try reader.u8()) else {
            throw reader.error("unknown value tag", at: start)
        }
        func mismatch() -> PersistenceError {
            reader.error("\(info.name).\(info.propertyName(at: slot)) holds a value of the wrong kind", at: start)
        }
        let type: AttributeType
        let isOptional: Bool
        switch plan {
        case .attribute(let attributeType, let optional):
            type = attributeType
            isOptional = optional
        case .toOne:
            switch tag {
            case .null: return .null
            case .object:
                let destination = info.relationship(at: slot).description.destination
                return .object(ObjectID(entityName: destination, key: try readKey(&reader)))
            case .entityObject:
                return .object(try readSubentityReference(&reader, slot: slot, of: info, infos: infos))
            default: throw mismatch()
            }
        case .toMany:
            guard tag == .objects || tag == .entityObjects else { throw mismatch() }
            let destination = info.relationship(at: slot).description.destination
            let count = try reader.varint()
            guard count <= UInt64(reader.buffer.count - reader.position) else { throw mismatch() }
            var ids: [ObjectID] = []
            ids.reserveCapacity(Int(count))
            for _ in 0..<count {
                ids.append(
                    tag == .objects
                        ? ObjectID(entityName: destination, key: try readKey(&reader))
                        : try readSubentityReference(&reader, slot: slot, of: info, infos: infos))
            }
            if let duplicate = ObjectID.firstDuplicate(in: ids) {
                throw reader.error("\(info.name).\(info.propertyName(at: slot)) lists \(duplicate) twice", at: start)
            }
            return .objects(ids)
        }
        switch (tag, type) {
        case (.null, _):
            // Saves never leave a required attribute null (validation refuses them) and typed
            // accessors trap on one, so in a file a null there is damage.
            guard isOptional else {
                throw reader.error(
                    "\(info.name).\(info.propertyName(at: slot)) is required but has no value", at: start)
            }
            return .null
        case (.false, .boolean): return .bool(false)
        case (.true, .boolean): return .bool(true)
        case (.int, .integer16), (.int, .integer32), (.int, .integer64):
            let value = StoreValue.int(try reader.zigzag())
            guard type.accepts(value) else { throw mismatch() }
            return value
        case (.float, .float): return .float(Float(bitPattern: try reader.u32()))
        case (.double, .double): return .double(Double(bitPattern: try reader.u64()))
        case (.string, .string): return .string(try utf8(&reader, start))
        case (.decimal, .decimal):
            guard let number = Decimal(storedText: try utf8(&reader, start))
            else {
                throw mismatch()
            }
            return .decimal(number)
        case (.date, .date): return .date(Date(timeIntervalSinceReferenceDate: Double(bitPattern: try reader.u64())))
        case (.data, .binary), (.data, .codable): return .data(Data(try reader.lengthPrefixed()))
        case (.uuid, .uuid):
            return .uuid(UUID(uuid: try reader.bytes(16).loadUnaligned(as: uuid_t.self)))
        case (.url, .uri):
            guard let url = URL(string: try utf8(&reader, start)) else { throw mismatch() }
            return .url(url)
        default: throw mismatch()
        }
    }

    private static func utf8(_ reader: inout ByteReader, _ start: Int) throws -> String {
        let bytes = try reader.lengthPrefixed()
        // ASCII is valid UTF-8 that `String(decoding:)` keeps as it is: no comparison needed.
        if ASCIIBytes.areASCII(bytes) { return String(decoding: bytes, as: UTF8.self) }
        // `String(decoding:)` is the fast path (`String(validating:)` looked up generic metadata
        // for every string), but it repairs invalid UTF-8 instead of failing: a repaired string's
        // bytes differ from the input at the first invalid sequence, which is how damage shows.
        let text = String(decoding: bytes, as: UTF8.self)
        let isUnchanged =
            text.utf8.count == bytes.count
            && (text.utf8.withContiguousStorageIfAvailable { UnsafeRawBufferPointer($0).elementsEqual(bytes) }
                ?? text.utf8.elementsEqual(bytes))
        guard isUnchanged else { throw reader.error("invalid UTF-8", at: start) }
        return text
    }
}
