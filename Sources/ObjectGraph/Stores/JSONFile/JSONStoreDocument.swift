import Foundation

/// The JSON store document: stable ordering (entities by name, objects by key, properties in
/// model order) so that two saves of the same data are byte-identical and diff cleanly.
/// The grammar is in Docs/StoreFormats.md.
enum JSONStoreDocument {
    static let formatName = "objectgraph-json"
    static let version: Int64 = 1
    /// The version of a document with store metadata (a `metadata` object after `entities`);
    /// a document without metadata is still written as version 1, byte for byte as before.
    static let metadataVersion: Int64 = 2
    /// The key of an object's version; property names cannot start with `$`.
    static let versionKey = "$version"

    static func encode(_ snapshot: StoreSnapshot, pretty: Bool) -> [UInt8] {
        var writer = JSONWriter(capacity: 64 + snapshot.count * 96)
        let newline: StaticString = pretty ? "\n" : ""
        writer.raw("{")
        writer.raw(newline)
        writer.raw(pretty ? "  \"format\": " : "\"format\":")
        writer.string(formatName)
        writer.raw(pretty ? ",\n  \"version\": " : ",\"version\":")
        writer.int(snapshot.metadata.isEmpty ? version : metadataVersion)
        writer.raw(pretty ? ",\n  \"schema\": " : ",\"schema\":")
        StoreSchema.write(snapshot.model.entities, into: &writer, pretty: pretty)
        writer.raw(pretty ? ",\n  \"entities\": {" : ",\"entities\":{")
        let infos = snapshot.model.infos.sorted { $0.name < $1.name }
        for (index, info) in infos.enumerated() {
            if index > 0 { writer.byte(UInt8(ascii: ",")) }
            writer.raw(pretty ? "\n    " : "")
            writer.string(info.name)
            writer.raw(pretty ? ": {\n      \"nextKey\": " : ":{\"nextKey\":")
            let table = snapshot.tables[info.index]
            writer.int(table.nextKey)
            writer.raw(pretty ? ",\n      \"objects\": {" : ",\"objects\":{")
            let prefixes = propertyPrefixes(of: info, pretty: pretty)
            var first = true
            table.forEach { key, row in
                if !first { writer.byte(UInt8(ascii: ",")) }
                first = false
                writer.raw(pretty ? "\n        \"" : "\"")
                writer.int(key)
                writer.raw(pretty ? "\": {\"$version\": " : "\":{\"$version\":")
                writer.int(row.version)
                for slot in 0..<info.propertyCount {
                    writer.append(prefixes[slot])
                    write(row.values[slot], slot: slot, of: info, pretty: pretty, into: &writer)
                }
                writer.byte(UInt8(ascii: "}"))
            }
            writer.raw(pretty && !first ? "\n      }" : "}")
            writer.raw(pretty ? "\n    }" : "}")
        }
        writer.raw(pretty && !infos.isEmpty ? "\n  }" : "}")
        if !snapshot.metadata.isEmpty {
            writer.raw(pretty ? ",\n  \"metadata\": {" : ",\"metadata\":{")
            for (index, key) in snapshot.metadata.keys.sorted().enumerated() {
                if index > 0 { writer.byte(UInt8(ascii: ",")) }
                writer.raw(pretty ? "\n    " : "")
                writer.string(key)
                writer.raw(pretty ? ": " : ":")
                writer.string(snapshot.metadata[key] ?? "")
            }
            writer.raw(pretty ? "\n  }" : "}")
        }
        writer.raw(pretty ? "\n}\n" : "}")
        return writer.bytes
    }

    /// `, "name": ` as JSON bytes for each property of `info`, by slot: written before each value.
    private static func propertyPrefixes(of info: EntityInfo, pretty: Bool) -> [[UInt8]] {
        (info.description.attributes.map(\.name) + info.description.relationships.map(\.name)).map { name in
            var writer = JSONWriter()
            writer.raw(pretty ? ", " : ",")
            writer.string(name)
            writer.raw(pretty ? ": " : ":")
            return writer.bytes
        }
    }

    /// One value as the JSON store writes it (also used by the tools' JSON-lines dump).
    static func write(
        _ value: StoreValue, slot: Int, of info: EntityInfo, pretty: Bool, into writer: inout JSONWriter
    ) {
        switch value {
        case .null: writer.null()
        case .bool(let flag): writer.bool(flag)
        case .int(let number): writer.int(number)
        case .float(let number): writer.float(number)
        case .double(let number): writer.double(number)
        case .string(let text): writer.string(text)
        case .decimal(let number): writer.string(number.description)
        case .date(let date): writer.double(date.timeIntervalSinceReferenceDate)
        case .data(let data):
            if info.isAttribute(slot), info.attribute(at: slot).type == .codable {
                writer.string(String(decoding: data, as: UTF8.self))
            } else {
                writer.string(data.base64EncodedString())
            }
        case .uuid(let uuid):
            writer.byte(UInt8(ascii: "\""))
            UUIDText.write(uuid, into: &writer)
            writer.byte(UInt8(ascii: "\""))
        case .url(let url): writer.string(url.absoluteString)
        case .object(let id):
            writeReference(id, destination: info.relationship(at: slot).description.destination, into: &writer)
        case .objects(let ids):
            writer.byte(UInt8(ascii: "["))
            let destination = info.relationship(at: slot).description.destination
            for (index, id) in ids.enumerated() {
                if index > 0 { writer.raw(pretty ? ", " : ",") }
                writeReference(id, destination: destination, into: &writer)
            }
            writer.byte(UInt8(ascii: "]"))
        }
    }
}
