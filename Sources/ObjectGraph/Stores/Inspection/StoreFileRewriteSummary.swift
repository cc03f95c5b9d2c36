import Foundation

/// What ``StoreFileInspector/convert(_:to:as:replacingExisting:)`` or
/// ``StoreFileInspector/compact(_:)`` did.
public struct StoreFileRewriteSummary: Sendable {
    /// The file that was read.
    public var source: URL
    /// The file that was written (the source itself for a compaction).
    public var destination: URL
    /// The kind of the file that was read.
    public var sourceKind: StoreFileKind
    /// The kind of the file that was written.
    public var destinationKind: StoreFileKind
    /// The size of the file that was read, in bytes.
    public var bytesBefore: Int
    /// The size of the file that was written, in bytes.
    public var bytesAfter: Int
    /// The number of frames in the binary log that was read; `nil` for a JSON source.
    public var framesBefore: Int?
    /// The number of objects written.
    public var objectCount: Int
    /// Where the source's torn tail started, if it had one: the incomplete save from that offset
    /// on was left out, as opening the store would have cut it off.
    public var droppedTornTailOffset: Int?
    /// Whether the destination was written; `false` when a compaction found the file already
    /// exactly as compact as it would make it.
    public var wroteFile: Bool
}
