import Foundation

extension StoreFileInspector {
    /// Calls `body` with every object of the store file at `url` as one line of JSON, entities in
    /// name order and objects in key order, so that two dumps of the same data are identical.
    ///
    /// Each line is an object with the entity name, the object's key and version, and its values
    /// by property name in model order:
    /// `{"entity":"Fruit","key":1,"version":2,"values":{"name":"apple","basket":1}}`. Values are
    /// written as the JSON store writes them: decimals, UUIDs, URLs and codable values as strings,
    /// binary data as a base64 string, dates as seconds since 2001-01-01 00:00 UTC, non-finite
    /// numbers as the strings `"NaN"`, `"Infinity"` and `"-Infinity"`, a to-one relationship as
    /// the destination's key (or `null`) and a to-many relationship as an array of keys. A binary
    /// store's torn tail is left out. The file is only read.
    ///
    /// For example:
    /// ```swift
    /// try StoreFileInspector.dump(url, entity: "Fruit") { line in print(line) }
    /// ```
    ///
    /// - Parameters:
    ///   - url: The store file.
    ///   - entity: The one entity to dump, or `nil` for all of them.
    ///   - body: Called once per object, in order; an error it throws stops the dump.
    /// - Throws: The errors of ``snapshot(of:)``; `PersistenceError.Code.unknownEntity` when the
    ///   file has no entity named `entity`; and whatever `body` throws.
    /// - Complexity: O(*n*) in the size of the file.
    public static func dump(_ url: URL, entity: String? = nil, _ body: (String) throws -> Void) throws {
        let contents = try StoreFileContents(url: url)
        let snapshot = contents.snapshot
        var infos = snapshot.model.infos.sorted { $0.name < $1.name }
        if let entity {
            infos = infos.filter { $0.name == entity }
            guard !infos.isEmpty else {
                throw PersistenceError.unknownEntity(
                    entity, inStore: url, known: snapshot.model.infos.map(\.name).sorted())
            }
        }
        for info in infos {
            try snapshot.tables[info.index].forEach { key, row in
                try body(jsonLine(entity: info, key: key, row: row))
            }
        }
    }

    private static func jsonLine(entity info: EntityInfo, key: Int64, row: EntityTable.Row) -> String {
        var writer = JSONWriter(capacity: 64 + row.values.count * 16)
        writer.raw("{\"entity\":")
        writer.string(info.name)
        writer.raw(",\"key\":")
        writer.int(key)
        writer.raw(",\"version\":")
        writer.int(row.version)
        writer.raw(",\"values\":{")
        for slot in 0..<info.propertyCount {
            if slot > 0 { writer.byte(UInt8(ascii: ",")) }
            writer.string(info.propertyName(at: slot))
            writer.byte(UInt8(ascii: ":"))
            JSONStoreDocument.write(row.values[slot], slot: slot, of: info, pretty: false, into: &writer)
        }
        writer.raw("}}")
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}
