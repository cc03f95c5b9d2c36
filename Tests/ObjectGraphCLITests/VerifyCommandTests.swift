import Foundation
import ObjectGraph
import Testing

@Suite struct VerifyCommandTests {
    // MARK: - Sound files

    @Test(arguments: StoreFileKind.allCases)
    func soundStorePrintsOk(kind: StoreFileKind) throws {
        let url = try StoreFixtures.makeStore(kind)
        let run = objectgraph("verify", url.path)
        #expect(run.status == 0)
        #expect(run.output == "ok\n")
        #expect(run.error.isEmpty)
    }

    // MARK: - Binary damage, with offsets

    @Test func truncatedLastFrameIsATornTailAtTheFrameStart() throws {
        let url = try StoreFixtures.makeStore(.binary)
        let boundary = StoreFixtures.size(url)
        try StoreFixtures.appendSave(.binary, at: url)
        let bytes = StoreFixtures.bytes(url)
        for cut in [1, 5, bytes.count - boundary - 1] {
            StoreFixtures.write(Array(bytes.dropLast(cut)), to: url)
            let run = objectgraph("verify", url.path)
            #expect(run.status == 1)
            #expect(run.output.isEmpty)
            #expect(
                run.error.hasPrefix(
                    "objectgraph verify: corruptStore: The store file \(url.path) ends in an incomplete save at "
                        + "byte \(boundary) (\(bytes.count - cut - boundary) bytes"))
            #expect(run.error.filter { $0 == "\n" }.count == 1)
            #expect(StoreFixtures.size(url) == bytes.count - cut)
        }
    }

    @Test func damagedLastFrameIsATornTail() throws {
        let url = try StoreFixtures.makeStore(.binary)
        let boundary = StoreFixtures.size(url)
        try StoreFixtures.appendSave(.binary, at: url)
        var bytes = StoreFixtures.bytes(url)
        bytes[bytes.count - 1] ^= 0x01
        StoreFixtures.write(bytes, to: url)
        let run = objectgraph("verify", url.path)
        #expect(run.status == 1)
        #expect(run.error.contains("ends in an incomplete save at byte \(boundary)"))
    }

    @Test func damagedFrameFollowedByValidOnesIsReportedAtItsOffset() throws {
        let url = try StoreFixtures.makeStore(.binary)
        let boundary = StoreFixtures.size(url)
        try StoreFixtures.appendSave(.binary, at: url)
        try StoreFixtures.appendSave(.binary, at: url, name: "red apple")
        var bytes = StoreFixtures.bytes(url)
        bytes[boundary + 9] ^= 0x40
        StoreFixtures.write(bytes, to: url)
        let run = objectgraph("verify", url.path)
        #expect(run.status == 1)
        #expect(
            run.error.hasPrefix(
                "objectgraph verify: corruptStore: The store file \(url.path) is damaged at byte \(boundary): "
                    + "a frame's checksum does not match, and valid frames follow it."))
    }

    @Test func damagedHeaderIsReportedAtItsChecksum() throws {
        let url = try StoreFixtures.makeStore(.binary)
        var bytes = StoreFixtures.bytes(url)
        bytes[20] ^= 0x01
        StoreFixtures.write(bytes, to: url)
        let run = objectgraph("verify", url.path)
        #expect(run.status == 1)
        #expect(run.error.contains("is damaged at byte"))
        #expect(run.error.contains("the header checksum does not match"))
    }

    @Test(arguments: [4, 8, 15, 30])
    func fileCutInsideTheHeaderIsDamagedNotForeign(length: Int) throws {
        let url = try StoreFixtures.makeStore(.binary)
        StoreFixtures.write(Array(StoreFixtures.bytes(url).prefix(length)), to: url)
        let run = objectgraph("verify", url.path)
        #expect(run.status == 1)
        #expect(run.error.hasPrefix("objectgraph verify: corruptStore: The store file \(url.path) is damaged at byte"))
    }

    @Test func newerFormatVersionIsUnsupported() throws {
        let url = try StoreFixtures.makeStore(.binary)
        var bytes = StoreFixtures.bytes(url)
        bytes[10] = 9  // the oldest reader version that can read the file
        StoreFixtures.write(bytes, to: url)
        let run = objectgraph("verify", url.path)
        #expect(run.status == 1)
        #expect(run.error.contains("unsupportedFormat: The store file \(url.path) needs format version 9"))
    }

    // MARK: - JSON damage

    @Test func truncatedJSONIsDamagedAtItsEnd() throws {
        let url = try StoreFixtures.makeStore(.json)
        let bytes = StoreFixtures.bytes(url)
        StoreFixtures.write(Array(bytes.prefix(bytes.count / 2)), to: url)
        let run = objectgraph("verify", url.path)
        #expect(run.status == 1)
        #expect(run.error.contains("corruptStore: The store file \(url.path) is damaged at byte"))
    }

    @Test func jsonWithADanglingRelationshipIsDamaged() throws {
        let url = try StoreFixtures.makeStore(.json)
        var text = String(decoding: StoreFixtures.bytes(url), as: UTF8.self)
        text = text.replacingOccurrences(of: "\"fruits\": [1, 2]", with: "\"fruits\": [1, 7]")
        StoreFixtures.write(Array(text.utf8), to: url)
        let run = objectgraph("verify", url.path)
        #expect(run.status == 1)
        #expect(run.error.contains("refers to Fruit/7, which is not in the store"))
    }

    @Test func jsonWithTrailingGarbageIsDamaged() throws {
        let url = try StoreFixtures.makeStore(.json)
        let bytes = StoreFixtures.bytes(url)
        StoreFixtures.write(bytes + Array("{}".utf8), to: url)
        let run = objectgraph("verify", url.path)
        #expect(run.status == 1)
        #expect(run.error.contains("is damaged at byte \(bytes.count)"))
    }
}

extension VerifyCommandTests {
    // MARK: - A damaged first frame is not a torn tail

    /// The first frame is written atomically, so a crash cannot tear it: a file whose only frames
    /// are damaged has been cut short, and no command may treat it as an empty store.
    @Test func damagedFirstFrameIsDamageThatNoCommandRewritesOrReadsAsEmpty() throws {
        let source = try StoreFixtures.makeStore(.binary)
        let url = source.deletingLastPathComponent().appendingPathComponent("compacted.store")
        #expect(objectgraph("convert", source.path, url.path).status == 0)
        let bytes = Array(StoreFixtures.bytes(url).dropLast(3))
        StoreFixtures.write(bytes, to: url)
        let verify = objectgraph("verify", url.path)
        #expect(verify.status == 1)
        #expect(verify.error.contains("its first frame, the snapshot written atomically"))
        for arguments in [
            ["inspect", url.path],
            ["dump", url.path], ["compact", url.path],
            ["convert", url.path, url.deletingLastPathComponent().appendingPathComponent("out.json").path],
        ] {
            let run = objectgraph(arguments)
            #expect(run.status == 1, "\(arguments)")
            #expect(run.output.isEmpty)
            #expect(run.error.contains("its first frame, the snapshot written atomically"))
        }
        #expect(StoreFixtures.bytes(url) == bytes)
        #expect(
            !FileManager.default.fileExists(
                atPath: url.deletingLastPathComponent().appendingPathComponent("out.json").path))
    }
}

extension VerifyCommandTests {
    @Test func newerJSONFormatVersionIsUnsupported() throws {
        let url = try StoreFixtures.makeStore(.json)
        let text = String(decoding: StoreFixtures.bytes(url), as: UTF8.self)
            .replacingOccurrences(of: "\"version\": 1,", with: "\"version\": 2,")
        StoreFixtures.write(Array(text.utf8), to: url)
        for command in ["verify", "inspect"] {
            let run = objectgraph(command, url.path)
            #expect(run.status == 1)
            #expect(run.error.contains("unsupportedFormat: The store file \(url.path) needs format version 2"))
        }
    }

    @Test func jsonOfAnotherFormatIsNotAStore() throws {
        let url = TemporaryDirectory.make().appendingPathComponent("other.json")
        StoreFixtures.write(Array(#"{"format": "other", "version": 1}"#.utf8), to: url)
        let run = objectgraph("verify", url.path)
        #expect(run.status == 1)
        #expect(run.error.contains("is not a JSON store (its format is \"other\")"))
    }
}
