import Foundation
import ObjectGraph

extension FuzzTarget {
    /// The libFuzzer entry point's body: runs the target on one input and traps on a violation,
    /// which libFuzzer reports as a crash and saves the input for.
    public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) {
        let input = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
        if case .violation(let reason) = evaluate(input) {
            fatalError("\(rawValue): \(reason)")
        }
    }

    /// The `main` of a fuzz target built without `-DFUZZING`: replays the files (or every file in
    /// the directories) given as arguments and prints what each did, exiting 1 on a violation.
    /// With `--write-seeds DIR` it writes the target's seed corpus into DIR instead.
    ///
    /// For example, reproducing a crash:
    /// ```
    /// swift run FuzzJSONStore Tests/Fixtures/Crashes/FuzzJSONStore/crash-1234
    /// ```
    public func replayMain(_ arguments: [String] = Array(CommandLine.arguments.dropFirst())) -> Never {
        if arguments.first == "--write-seeds", arguments.count == 2 {
            let directory = URL(fileURLWithPath: arguments[1], isDirectory: true)
            do {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                for seed in seeds { try Data(seed.bytes).write(to: directory.appendingPathComponent(seed.name)) }
            } catch {
                print("\(rawValue): cannot write seeds to \(directory.path): \(error)")
                exit(2)
            }
            print("\(rawValue): wrote \(seeds.count) seeds to \(directory.path)")
            exit(0)
        }
        guard !arguments.isEmpty, !arguments.contains(where: { $0.hasPrefix("-") }) else {
            print(
                """
                usage: \(rawValue) FILE-OR-DIRECTORY...   replay inputs, as the fuzzer runs them
                       \(rawValue) --write-seeds DIR      write the seed corpus
                Build with -Xswiftc -DFUZZING and --sanitize fuzzer to fuzz; see scripts/fuzz.sh.
                """)
            exit(2)
        }
        var violations = 0
        for path in arguments.flatMap(Self.files(at:)) {
            guard let data = FileManager.default.contents(atPath: path) else {
                print("\(path): cannot read")
                violations += 1
                continue
            }
            switch evaluate(Array(data)) {
            case .decoded(let objects): print("\(path): decoded, \(objects) objects")
            case .rejected(let error):
                print("\(path): rejected, \(error.code) at byte \(error.byteOffset.map(String.init) ?? "-")")
            case .violation(let reason):
                print("\(path): VIOLATION: \(reason)")
                violations += 1
            }
        }
        exit(violations == 0 ? 0 : 1)
    }

    /// The file at `path`, or the regular files in the directory at `path`, sorted.
    public static func files(at path: String) -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            return [path]
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted().map { path + "/" + $0 }
    }
}
