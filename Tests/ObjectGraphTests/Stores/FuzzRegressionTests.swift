import Foundation
import FuzzSupport
import Testing

@testable import ObjectGraph

/// The fuzz targets' checks, run on the committed seed corpora and on every input that once
/// crashed a fuzz target (Tests/Fixtures/Crashes/<target>/), so that a fixed crash stays fixed.
/// scripts/fuzz.sh writes new crash inputs there.
@Suite struct FuzzRegressionTests {
    static let fixtures = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    static func inputs(_ folder: String, _ target: FuzzTarget) -> [String] {
        let directory = fixtures.appendingPathComponent(folder).appendingPathComponent(target.rawValue)
        guard FileManager.default.fileExists(atPath: directory.path) else { return [] }
        return FuzzTarget.files(at: directory.path)
    }

    @Test(arguments: FuzzTarget.allCases)
    func crashInputsAreRejectedOrDecodedWithoutViolation(target: FuzzTarget) throws {
        for path in Self.inputs("Crashes", target) {
            let input = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
            if case .violation(let reason) = target.evaluate(input) {
                Issue.record("\(path): \(reason)")
            }
        }
    }

    @Test(arguments: FuzzTarget.allCases)
    func committedSeedsAreTheCurrentSeedsAndPassTheChecks(target: FuzzTarget) throws {
        let committed = Self.inputs("Corpus", target)
        #expect(
            committed.map { URL(fileURLWithPath: $0).lastPathComponent } == target.seeds.map(\.name).sorted(),
            "regenerate with: swift run \(target.rawValue) --write-seeds Tests/Fixtures/Corpus/\(target.rawValue)")
        for seed in target.seeds {
            let outcome = target.evaluate(seed.bytes)
            #expect(!outcome.isViolation, "\(seed.name): \(outcome)")
            if case .decoded = outcome {
            } else {
                #expect(seed.name == "changes.frames", "\(seed.name) decodes: \(outcome)")
            }
        }
    }

    @Test func repairedFrameChecksumsLetDamagedPayloadsReachTheParser() throws {
        let payload: [UInt8] = [2, 2, 0, 1]  // a save deleting Item/1, which does not exist
        let frame: [UInt8] = [UInt8(payload.count), 0, 0, 0, 0, 0, 0, 0] + payload
        let header = FuzzTarget.fuzzHeader
        let url = FuzzTarget.binaryFrames.url
        // As is, the frame fails its checksum; being the first frame (always written atomically
        // with the header), that is damage, not a torn tail.
        let damaged = #expect(throws: PersistenceError.self) {
            try StoreFileCodec.replayBinaryStore(header + frame, url: url, model: FuzzModel.model)
        }
        #expect(damaged?.message.contains("first frame") == true && damaged?.byteOffset == header.count)
        let error = #expect(throws: PersistenceError.self) {
            try StoreFileCodec.replayBinaryStore(
                header + StoreFileCodec.withFrameChecksumsRepaired(frame), url: url, model: FuzzModel.model)
        }
        #expect(error?.message.contains("deletes Item/1, which does not exist") == true)
        #expect(error?.byteOffset == header.count + 9)
    }

    @Test func repairedHeaderChecksumLetsADamagedSchemaReachTheParser() throws {
        let header = FuzzTarget.fuzzHeader
        let name = try #require(header.offset(of: "{\"name\":\"Owner\""))
        let damaged = header.replacing(name..<(name + 15), with: "{\"name\":\"Other\"")
        let url = FuzzTarget.binaryHeader.url
        let error = #expect(throws: PersistenceError.self) { try StoreFileCodec.decodeBinaryHeader(damaged, url: url) }
        #expect(error?.message.contains("checksum") == true)
        let repaired = try StoreFileCodec.decodeBinaryHeader(
            StoreFileCodec.withHeaderChecksumRepaired(damaged), url: url)
        #expect(repaired.schema.map(\.name) == ["Item", "Other", "Tag"])
    }
}
