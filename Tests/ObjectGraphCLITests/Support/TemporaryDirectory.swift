import Foundation
import ObjectGraph

/// A fresh directory under the system's temporary directory, removed when the test process
/// exits. Each test makes its own, so tests can run in parallel.
enum TemporaryDirectory {
    private static let created = Locked<[URL]>([])
    private static let registerCleanup: Void = {
        atexit {
            for url in TemporaryDirectory.created.withLock({ $0 }) { try? FileManager.default.removeItem(at: url) }
        }
    }()

    static func make() -> URL {
        _ = registerCleanup
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "objectgraph-cli-tests-\(UUID().uuidString)", isDirectory: true)
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        created.withLock { $0.append(url) }
        return url
    }
}
