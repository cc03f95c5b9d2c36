import Foundation

@testable import ObjectGraph

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file system in memory that records every change a store makes (writes, truncations,
/// `fsync`s, creations, renames, links, removals, directory `fsync`s), and from that record builds
/// the disk states a power cut could leave at any point, as POSIX allows them:
///
/// - a file's data changes since its last `fsync` may each be lost, in any combination (so
///   unsynced writes may reach the disk out of order), and the last of them may be torn at a
///   512-byte sector boundary of the file;
/// - a directory's changes (a new file, a rename, a link, a removal) since its last `fsync` may be
///   lost, the later ones first (file systems journal metadata in order: ext4, XFS, APFS);
/// - everything before an `fsync` of the file (or of the directory) survives.
///
/// The live view (what the running store reads) has every change applied. Paths are kept whole:
/// a directory is the part of a path before its last `/`.
final class PowerLossFileSystem: FileSystem, @unchecked Sendable {  // @unchecked: `state` is a `Locked`.
    static let sectorSize = 512

    /// What a disk holds: file contents by inode number, and names by path.
    struct Image: Equatable {
        var files: [Int: [UInt8]] = [:]
        var names: [String: Int] = [:]
    }

    /// One recorded change.
    enum Change {
        case write(inode: Int, offset: Int, bytes: [UInt8])
        case truncate(inode: Int, size: Int)
        case sync(inode: Int)
        case create(path: String, inode: Int)
        case rename(from: String, to: String)
        case link(from: String, to: String)
        case remove(path: String)
        case syncDirectory(String)

        var inode: Int? {
            switch self {
            case .write(let inode, _, _), .truncate(let inode, _): inode
            default: nil
            }
        }

        var directory: String? {
            switch self {
            case .create(let path, _), .rename(_, let path), .link(_, let path), .remove(let path):
                PowerLossFileSystem.directory(of: path)
            default: nil
            }
        }
    }

    private struct State {
        var live: Image
        var nextInode: Int
        var changes: [Change] = []
        /// Open descriptors: an inode, or a directory's path.
        var descriptors: [Int32: Either] = [:]
        var nextDescriptor: Int32 = 1_000
    }

    private enum Either {
        case file(Int)
        case directory(String)
    }

    /// The image the recording started from: the disk as it was when the file system was made.
    let initial: Image
    /// Whether `fsync` does nothing (a disk that lies, or a store that forgot to call it).
    let ignoresSyncs: Bool
    private let state: Locked<State>

    init(_ image: Image = Image(), ignoringSyncs: Bool = false) {
        initial = image
        ignoresSyncs = ignoringSyncs
        state = Locked(State(live: image, nextInode: (image.files.keys.max() ?? 0) + 1))
    }

    /// How many changes have been recorded: a crash point is a number from 0 to this.
    var changeCount: Int { state.withLock { $0.changes.count } }

    /// The recorded changes.
    var changes: [Change] { state.withLock { $0.changes } }

    /// What the running program sees now.
    var live: Image { state.withLock { $0.live } }

    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    // MARK: - Crash states

    /// Every disk state a power cut after the first `point` recorded changes can leave.
    ///
    /// The changes a later `fsync` made durable are kept; of the others, each file's data changes
    /// are kept in every combination (up to `maximumCombinations` per file; past that, as
    /// prefixes), each directory's in every prefix, and in each state the last kept data write is
    /// also torn at every sector boundary inside it. The states are distinct.
    ///
    /// When the combinations of all files and directories exceed `maximumSelections` (a disk
    /// that ignores `fsync` leaves every change pending), an evenly spaced sample of them is
    /// taken, the first and the last included.
    func crashStates(at point: Int, maximumCombinations: Int = 64, maximumSelections: Int = 4_096) -> [Image] {
        let changes = Array(self.changes.prefix(point))
        // What a sync made durable: every change of that file (or directory) before it.
        var durable = Set<Int>()
        for (index, change) in changes.enumerated() {
            switch change {
            case .sync(let inode):
                for earlier in 0..<index where changes[earlier].inode == inode { durable.insert(earlier) }
            case .syncDirectory(let directory):
                for earlier in 0..<index where changes[earlier].directory == directory { durable.insert(earlier) }
            default: break
            }
        }
        var pendingData: [Int: [Int]] = [:]
        var pendingDirectory: [String: [Int]] = [:]
        for (index, change) in changes.enumerated() where !durable.contains(index) {
            if let inode = change.inode { pendingData[inode, default: []].append(index) }
            if let directory = change.directory { pendingDirectory[directory, default: []].append(index) }
        }
        // The choices per group: each a set of pending changes to keep.
        var groups: [[Set<Int>]] = []
        for (_, pending) in pendingData.sorted(by: { $0.key < $1.key }) {
            if 1 << pending.count <= maximumCombinations {
                groups.append(
                    (0..<(1 << pending.count)).map { mask in
                        Set(pending.indices.filter { mask & (1 << $0) != 0 }.map { pending[$0] })
                    })
            } else {
                groups.append((0...pending.count).map { Set(pending.prefix($0)) })
            }
        }
        for (_, pending) in pendingDirectory.sorted(by: { $0.key < $1.key }) {
            groups.append((0...pending.count).map { Set(pending.prefix($0)) })
        }
        var selections: [Set<Int>] = [durable]
        for group in groups {
            selections = selections.flatMap { chosen in group.map { chosen.union($0) } }
            if selections.count > maximumSelections {
                let stride = Double(selections.count - 1) / Double(maximumSelections - 1)
                selections = (0..<maximumSelections).map { selections[Int((Double($0) * stride).rounded())] }
            }
        }
        var images: [Image] = []
        var seen = Set<[UInt8]>()
        func add(_ image: Image) {
            let key = Self.fingerprint(image)
            if seen.insert(key).inserted { images.append(image) }
        }
        for selection in selections {
            add(apply(changes, keeping: selection, tearing: nil))
            // The last kept write that a sync did not make durable, torn at each sector boundary.
            if let last = selection.subtracting(durable).filter({
                if case .write = changes[$0] { true } else { false }
            }).max(), case .write(_, let offset, let bytes) = changes[last] {
                var boundary = (offset / Self.sectorSize + 1) * Self.sectorSize
                while boundary < offset + bytes.count {
                    add(apply(changes, keeping: selection, tearing: (last, boundary - offset)))
                    boundary += Self.sectorSize
                }
            }
        }
        return images
    }

    /// The initial image with the chosen changes applied in order; `tearing` keeps only the first
    /// bytes of one write.
    private func apply(_ changes: [Change], keeping kept: Set<Int>, tearing: (index: Int, count: Int)?) -> Image {
        var image = initial
        for (index, change) in changes.enumerated() where kept.contains(index) {
            switch change {
            case .write(let inode, let offset, var bytes):
                if let tearing, tearing.index == index { bytes = Array(bytes.prefix(tearing.count)) }
                Self.write(bytes, at: offset, to: &image.files[inode, default: []])
            case .truncate(let inode, let size): Self.truncate(&image.files[inode, default: []], to: size)
            case .create(let path, let inode):
                image.names[path] = inode
                if image.files[inode] == nil { image.files[inode] = [] }
            case .rename(let source, let destination):
                // A rename whose source name never reached the disk cannot happen on it.
                if let inode = image.names.removeValue(forKey: source) { image.names[destination] = inode }
            case .link(let source, let destination):
                if let inode = image.names[source] { image.names[destination] = inode }
            case .remove(let path): image.names[path] = nil
            case .sync, .syncDirectory: break
            }
        }
        // Contents no name reaches are gone.
        let reachable = Set(image.names.values)
        image.files = image.files.filter { reachable.contains($0.key) }
        return image
    }

    /// A byte string that differs for images a store could tell apart (names and contents).
    private static func fingerprint(_ image: Image) -> [UInt8] {
        var bytes: [UInt8] = []
        for (name, inode) in image.names.sorted(by: { $0.key < $1.key }) {
            bytes += Array(name.utf8) + [0]
            let contents = image.files[inode] ?? []
            bytes += withUnsafeBytes(of: contents.count.littleEndian) { Array($0) } + contents
        }
        return bytes
    }

    private static func write(_ bytes: [UInt8], at offset: Int, to file: inout [UInt8]) {
        if file.count < offset + bytes.count { file += [UInt8](repeating: 0, count: offset + bytes.count - file.count) }
        file.replaceSubrange(offset..<(offset + bytes.count), with: bytes)
    }

    private static func truncate(_ file: inout [UInt8], to size: Int) {
        if file.count > size { file.removeLast(file.count - size) }
        if file.count < size { file += [UInt8](repeating: 0, count: size - file.count) }
    }

    // MARK: - FileSystem

    private func fail(_ operation: String, _ path: String, _ number: Int32) -> PersistenceError {
        errno = number
        return PersistenceError.io(operation, path: path)
    }

    private func inode(_ descriptor: Int32, _ state: State, _ operation: String, _ path: String) throws -> Int {
        guard case .file(let inode) = state.descriptors[descriptor] else { throw fail(operation, path, EBADF) }
        return inode
    }

    func open(_ path: String, flags: Int32, mode: mode_t) throws -> Int32 {
        try state.withLock { state in
            let descriptor = state.nextDescriptor
            state.nextDescriptor += 1
            if flags & O_DIRECTORY != 0 {
                state.descriptors[descriptor] = .directory(path)
                return descriptor
            }
            if let inode = state.live.names[path] {
                guard flags & O_CREAT == 0 || flags & O_EXCL == 0 else { throw fail("open", path, EEXIST) }
                state.descriptors[descriptor] = .file(inode)
                return descriptor
            }
            guard flags & O_CREAT != 0 else { throw fail("open", path, ENOENT) }
            let inode = state.nextInode
            state.nextInode += 1
            state.live.files[inode] = []
            state.live.names[path] = inode
            state.changes.append(.create(path: path, inode: inode))
            state.descriptors[descriptor] = .file(inode)
            return descriptor
        }
    }

    func close(_ descriptor: Int32) {
        state.withLock { _ = $0.descriptors.removeValue(forKey: descriptor) }
    }

    func size(_ descriptor: Int32, path: String) throws -> Int {
        try state.withLock { state in state.live.files[try inode(descriptor, state, "fstat", path)]?.count ?? 0 }
    }

    func read(_ descriptor: Int32, count: Int, at offset: Int, path: String) throws -> [UInt8] {
        try state.withLock { state in
            let file = state.live.files[try inode(descriptor, state, "read", path)] ?? []
            guard offset < file.count else { return [] }
            return Array(file[offset..<min(file.count, offset + count)])
        }
    }

    func write(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int, path: String) throws {
        try state.withLock { state in
            let inode = try inode(descriptor, state, "write", path)
            let bytes = Array(bytes)
            Self.write(bytes, at: offset, to: &state.live.files[inode, default: []])
            state.changes.append(.write(inode: inode, offset: offset, bytes: bytes))
        }
    }

    func synchronize(_ descriptor: Int32, path: String) throws {
        guard !ignoresSyncs else { return }
        state.withLock { state in
            switch state.descriptors[descriptor] {
            case .file(let inode): state.changes.append(.sync(inode: inode))
            case .directory(let directory): state.changes.append(.syncDirectory(directory))
            case nil: break
            }
        }
    }

    func truncate(_ descriptor: Int32, to size: Int, path: String) throws {
        try state.withLock { state in
            let inode = try inode(descriptor, state, "ftruncate", path)
            Self.truncate(&state.live.files[inode, default: []], to: size)
            state.changes.append(.truncate(inode: inode, size: size))
        }
    }

    func rename(_ source: String, to destination: String) throws {
        try state.withLock { state in
            guard let inode = state.live.names.removeValue(forKey: source) else {
                throw fail("rename", destination, ENOENT)
            }
            state.live.names[destination] = inode
            state.changes.append(.rename(from: source, to: destination))
        }
    }

    func link(_ source: String, to destination: String) throws {
        try state.withLock { state in
            guard let inode = state.live.names[source] else { throw fail("link", destination, ENOENT) }
            guard state.live.names[destination] == nil else { throw fail("link", destination, EEXIST) }
            state.live.names[destination] = inode
            state.changes.append(.link(from: source, to: destination))
        }
    }

    func remove(_ path: String) throws {
        state.withLock { state in
            guard state.live.names.removeValue(forKey: path) != nil else { return }
            state.changes.append(.remove(path: path))
        }
    }

    func fileType(_ descriptor: Int32, path: String) throws -> mode_t {
        try state.withLock { state in
            switch state.descriptors[descriptor] {
            case .file: S_IFREG
            case .directory: S_IFDIR
            case nil: throw fail("fstat", path, EBADF)
            }
        }
    }

    func entryStatus(_ path: String) -> (type: mode_t, owner: uid_t)? {
        state.withLock { $0.live.names[path] == nil ? nil : (S_IFREG, geteuid()) }
    }

    func permissions(of path: String) -> mode_t? {
        state.withLock { $0.live.names[path] == nil ? nil : 0o600 }
    }

    func setPermissions(_ descriptor: Int32, _ mode: mode_t, path: String) throws {}

    func contentsOfDirectory(_ path: String) throws -> [String] {
        state.withLock { state in
            state.live.names.keys.filter { Self.directory(of: $0) == path }.map { String($0.dropFirst(path.count + 1)) }
                .sorted()
        }
    }

    func tryLock(_ descriptor: Int32) -> Bool { true }
}
