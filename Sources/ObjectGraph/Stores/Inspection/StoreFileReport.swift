import Foundation

/// What a store file holds, as ``StoreFileInspector/inspect(_:)`` reads it: its kind and format
/// version, its size, its schema and how many objects of each entity it stores.
///
/// For example:
/// ```swift
/// let report = try StoreFileInspector.inspect(URL(fileURLWithPath: "fruits.store"))
/// print(report.kind, report.objectCounts["Fruit"] ?? 0)
/// ```
public struct StoreFileReport: Sendable {
    /// The file that was read.
    public var url: URL
    /// Whether the file is a JSON or a binary store, from its first bytes.
    public var kind: StoreFileKind
    /// The format version the file was written with.
    public var formatVersion: Int
    /// The file's size in bytes.
    public var fileSize: Int
    /// The entities the file's schema describes, in the order the file stores them.
    public var schema: [EntityDescription]
    /// The number of stored objects of every entity, by entity name.
    public var objectCounts: [String: Int]
    /// The key the next new object of every entity gets, by entity name.
    public var nextKeys: [String: Int64]
    /// The number of complete frames in a binary store's log (1 right after compaction); `nil`
    /// for a JSON store.
    public var frameCount: Int?
    /// The byte offset at which a binary store's log ends in an incomplete frame (a save that a
    /// crash interrupted), or `nil` when the log is whole. Opening the store cuts the tail off.
    public var tornTailOffset: Int?

    /// The number of stored objects of all entities.
    public var objectCount: Int { objectCounts.values.reduce(0, +) }

    init(_ contents: StoreFileContents) {
        let snapshot = contents.snapshot
        let schema = snapshot.model.entities
        url = contents.url
        kind = contents.kind
        formatVersion = contents.formatVersion
        fileSize = contents.bytes.count
        self.schema = schema
        objectCounts = Dictionary(uniqueKeysWithValues: schema.map { ($0.name, snapshot.count(ofEntity: $0.name)) })
        nextKeys = Dictionary(uniqueKeysWithValues: schema.map { ($0.name, snapshot.nextKey(ofEntity: $0.name)) })
        frameCount = contents.frameCount
        tornTailOffset = contents.tornTailOffset
    }
}
