import Foundation
import ObjectGraph

/// One of the package's fuzz targets: what it feeds the bytes to, and what it checks.
///
/// A loader must either decode the bytes or throw a typed ``PersistenceError`` naming the file
/// and, where one applies, a byte offset inside it. What it decodes must survive a round trip:
/// the store writes it back in a form it reads back to the same state. Anything else (another
/// error type, an unexpected code, an offset outside the file, a failed round trip) is a
/// ``FuzzOutcome/violation(_:)``; a crash or hang is the fuzzer's to catch.
public enum FuzzTarget: String, CaseIterable, Sendable {
    /// Bytes as a JSON store document, decoded against ``FuzzModel/model``.
    case jsonStore = "FuzzJSONStore"
    /// Bytes as a binary store header; a schema it holds that forms a valid model is then used
    /// to write and replay an empty store of that model.
    case binaryHeader = "FuzzBinaryHeader"
    /// A valid header for ``FuzzModel/model`` followed by the bytes, replayed.
    case binaryFrames = "FuzzBinaryFrames"
    /// Bytes as a predicate format string from an untrusted caller, parsed and fetched.
    case predicateFormat = "FuzzPredicateFormat"
    /// Bytes as a test fixture document, read, inserted and saved.
    case fixture = "FuzzFixture"

    /// The file errors must name.
    public var url: URL {
        URL(fileURLWithPath: "/fuzz/\(rawValue)" + ([.jsonStore, .fixture].contains(self) ? ".json" : ".ogdb"))
    }

    /// Runs the target on `input`: the first violation, or what became of the input.
    ///
    /// The binary targets run twice when that makes a difference: once on the bytes as they are
    /// (testing the checksum checks and torn-tail recovery), once with every checksum rewritten
    /// to match (so that mutated contents get past the checksums to the parsers, which a fuzzer
    /// that cannot compute a CRC-32C would otherwise seldom reach).
    public func evaluate(_ input: [UInt8]) -> FuzzOutcome {
        let files: [[UInt8]]
        switch self {
        case .jsonStore: return evaluateJSONStore(input)
        case .predicateFormat: return evaluatePredicateFormat(input)
        case .fixture: return evaluateFixture(input)
        case .binaryHeader: files = [input, StoreFileCodec.withHeaderChecksumRepaired(input)]
        case .binaryFrames:
            files = [Self.fuzzHeader + input, Self.fuzzHeader + StoreFileCodec.withFrameChecksumsRepaired(input)]
        }
        let asIs = self == .binaryHeader ? evaluateBinaryHeader(files[0]) : evaluateBinaryFrames(files[0])
        guard files[1] != files[0], !asIs.isViolation else { return asIs }
        let repaired = self == .binaryHeader ? evaluateBinaryHeader(files[1]) : evaluateBinaryFrames(files[1])
        return repaired.isViolation ? repaired : asIs
    }

    /// The header the binary frames target puts before its input.
    public static let fuzzHeader = StoreFileCodec.encodeBinaryHeader(FuzzModel.model)

    // MARK: - JSON store

    private func evaluateJSONStore(_ bytes: [UInt8]) -> FuzzOutcome {
        let snapshot: StoreSnapshot
        do {
            snapshot = try StoreFileCodec.decodeJSONStore(bytes, url: url, model: FuzzModel.model)
        } catch {
            return rejection(error, of: bytes, allowed: [.corruptStore, .unsupportedFormat, .modelMismatch])
        }
        for pretty in [false, true] {
            let written = StoreFileCodec.encodeJSONStore(snapshot, pretty: pretty)
            do {
                let reread = try StoreFileCodec.decodeJSONStore(written, url: url, model: FuzzModel.model)
                guard StoreFileCodec.encodeJSONStore(reread, pretty: pretty) == written else {
                    return .violation("a decoded JSON store reads back different after writing it")
                }
            } catch {
                return .violation("a decoded JSON store writes a document it cannot read: \(error)")
            }
        }
        let binary = StoreFileCodec.encodeBinaryStore(snapshot)
        do {
            let replay = try StoreFileCodec.replayBinaryStore(binary, url: url, model: FuzzModel.model)
            guard
                StoreFileCodec.encodeJSONStore(replay.snapshot, pretty: false)
                    == StoreFileCodec.encodeJSONStore(snapshot, pretty: false)
            else { return .violation("a decoded JSON store reads back different from a binary store") }
        } catch {
            return .violation("a decoded JSON store writes a binary store it cannot read: \(error)")
        }
        return .decoded(objects: snapshot.count)
    }

    // MARK: - Binary header

    private func evaluateBinaryHeader(_ bytes: [UInt8]) -> FuzzOutcome {
        let header: (schema: [EntityDescription], size: Int)
        do {
            header = try StoreFileCodec.decodeBinaryHeader(bytes, url: url)
        } catch {
            return rejection(error, of: bytes, allowed: [.corruptStore, .unsupportedFormat])
        }
        guard header.size <= bytes.count else { return .violation("the header is larger than the input") }
        let model: ManagedObjectModel
        do {
            model = try ManagedObjectModel(entities: header.schema)
        } catch let error as PersistenceError where error.code == .invalidModel {
            return .decoded(objects: 0)
        } catch {
            return .violation("a stored schema's model fails with \(error)")
        }
        // A tool opening a store from its schema alone: write an empty store and replay it.
        let file = StoreFileCodec.encodeBinaryStore(StoreSnapshot(model: model))
        do {
            let replay = try StoreFileCodec.replayBinaryStore(file, url: url, model: model)
            guard !replay.hasTornTail, replay.validEnd == file.count, replay.snapshot.count == 0 else {
                return .violation("an empty store of a stored schema replays with a torn tail or objects")
            }
        } catch {
            return .violation("an empty store of a stored schema cannot be replayed: \(error)")
        }
        return .decoded(objects: 0)
    }

    // MARK: - Binary frames

    private func evaluateBinaryFrames(_ bytes: [UInt8]) -> FuzzOutcome {
        let headerSize = Self.fuzzHeader.count
        let replay: (snapshot: StoreSnapshot, validEnd: Int, hasTornTail: Bool)
        do {
            replay = try StoreFileCodec.replayBinaryStore(bytes, url: url, model: FuzzModel.model)
        } catch {
            if let error = error as? PersistenceError, let offset = error.byteOffset, offset < headerSize {
                return .violation("an error points into the valid header, at byte \(offset): \(error)")
            }
            return rejection(error, of: bytes, allowed: [.corruptStore])
        }
        guard replay.validEnd >= headerSize, replay.validEnd <= bytes.count,
            replay.hasTornTail == (replay.validEnd < bytes.count)
        else {
            return .violation(
                "the valid end \(replay.validEnd) of \(bytes.count) bytes disagrees with hasTornTail "
                    + "\(replay.hasTornTail)")
        }
        let compacted = StoreFileCodec.encodeBinaryStore(replay.snapshot)
        // What the store does on a torn tail: cut it off. The cut file must open cleanly, the same.
        if replay.hasTornTail {
            do {
                let cut = try StoreFileCodec.replayBinaryStore(
                    Array(bytes[..<replay.validEnd]), url: url, model: FuzzModel.model)
                guard !cut.hasTornTail, StoreFileCodec.encodeBinaryStore(cut.snapshot) == compacted else {
                    return .violation("a store cut at its torn tail reads back different")
                }
            } catch {
                return .violation("a store cut at its torn tail cannot be read: \(error)")
            }
        }
        do {
            let reread = try StoreFileCodec.replayBinaryStore(compacted, url: url, model: FuzzModel.model)
            guard !reread.hasTornTail, StoreFileCodec.encodeBinaryStore(reread.snapshot) == compacted else {
                return .violation("a replayed binary store reads back different after compaction")
            }
        } catch {
            return .violation("a replayed binary store compacts to a file it cannot read: \(error)")
        }
        return .decoded(objects: replay.snapshot.count)
    }

    // MARK: - Errors

    /// Checks that a loader's error is a typed one with an allowed code, naming the file and an
    /// offset inside it.
    private func rejection(_ error: any Error, of bytes: [UInt8], allowed: Set<PersistenceError.Code>)
        -> FuzzOutcome
    {
        guard let error = error as? PersistenceError else {
            return .violation("an untyped error: \(type(of: error)): \(error)")
        }
        guard allowed.contains(error.code) else { return .violation("an unexpected code: \(error)") }
        if error.code != .modelMismatch {
            guard error.fileURL == url else { return .violation("the error does not name the file: \(error)") }
            guard error.message.contains(url.path) else {
                return .violation("the message does not name the file: \(error)")
            }
        }
        if let offset = error.byteOffset, offset < 0 || offset > bytes.count {
            return .violation("the offset \(offset) is outside the \(bytes.count) bytes: \(error)")
        }
        if error.code == .corruptStore, error.byteOffset == nil, !error.message.contains("which is not in the store") {
            return .violation("a corruptStore error without a byte offset: \(error)")
        }
        return .rejected(error)
    }
}

/// What a fuzz target made of one input.
public enum FuzzOutcome: Sendable {
    /// The input decoded (and round-tripped); `objects` is how many objects it held.
    case decoded(objects: Int)
    /// The input was refused with a well-formed typed error.
    case rejected(PersistenceError)
    /// A broken promise: the fuzz target traps on it, the test suite fails on it.
    case violation(String)

    /// Whether this is a violation.
    public var isViolation: Bool {
        if case .violation = self { true } else { false }
    }
}
