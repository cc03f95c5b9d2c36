import Foundation
import ObjectGraph

/// Issue 20's target: migrating a store of `count` objects (one attribute added, one renamed)
/// costs at most 1.5x opening and compacting the same store, for the binary and JSON stores.
/// `--only "(issue 20)"` runs these workloads alone.
func runMigrationBenchmarks(count: Int) throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("objectgraph-bench-\(UUID())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    var entities = model.entities
    let item = try require(entities.firstIndex { $0.name == "Item" })
    let name = try require(entities[item].attributes.firstIndex { $0.name == "name" })
    entities[item].attributes[name].name = "title"
    entities[item].attributes[name].renamingIdentifier = "name"
    entities[item].attributes.append(AttributeDescription(name: "note", type: .string, isOptional: true))
    let migrated = try ManagedObjectModel(entities: entities)

    let kinds: [(String, (URL) -> any PersistentStore)] = [
        ("binary", { BinaryFileStore(url: $0) }), ("JSON", { JSONFileStore(url: $0) }),
    ]
    for (label, makeStore) in kinds {
        let open = "(issue 20) \(label): open + compact \(count) objects"
        let migrate = "(issue 20) \(label): migrate \(count) objects on open (add an attribute, rename one)"
        guard isSelected(open) || isSelected(migrate) else { continue }
        let base = directory.appendingPathComponent("base-\(label)")
        do {
            let container = try PersistentContainer(model: model, store: makeStore(base))
            let context = container.newContext()
            fill(context, count: count)
            try context.save()
        }
        var round = 0
        /// A fresh copy of the store, made outside the timing.
        func copy() throws -> URL {
            round += 1
            let url = directory.appendingPathComponent("copy-\(label)-\(round)")
            try FileManager.default.copyItem(at: base, to: url)
            return url
        }
        let baseline = try medianTimed(open, repetitions: 5) {
            let url = try copy()
            let start = ContinuousClock.now
            do {
                let container = try PersistentContainer(model: model, store: makeStore(url))
                precondition(container.committedSnapshot().count == count)
            }
            try StoreFileInspector.compact(url)
            return ContinuousClock.now - start
        }
        let migration = try medianTimed(migrate, repetitions: 5) {
            let url = try copy()
            let start = ContinuousClock.now
            let container = try PersistentContainer(model: migrated, store: makeStore(url))
            precondition(container.committedSnapshot().count == count)
            return ContinuousClock.now - start
        }
        if let baseline, let migration {
            let ratio = Double(migration.components.attoseconds) / 1e18 + Double(migration.components.seconds)
            let base = Double(baseline.components.attoseconds) / 1e18 + Double(baseline.components.seconds)
            // report(_:_:) prints the row unless `--only` excludes it.
            report(
                "(issue 20) \(label): migration / (open + compact), \(count) objects (target at most 1.5)",
                String(format: "%.2f", ratio / base))
        }
    }
}

/// Runs `body` `repetitions` times (once with `--smoke`), prints the median as a row and returns it.
private func medianTimed(_ name: String, repetitions: Int, _ body: () throws -> Duration) rethrows -> Duration? {
    guard isSelected(name) else { return nil }
    var samples: [Duration] = []
    for _ in 0..<(smoke ? 1 : repetitions) { samples.append(try body()) }
    samples.sort()
    let median = samples[samples.count / 2]
    let milliseconds = Double(median.components.attoseconds) / 1e15 + Double(median.components.seconds) * 1e3
    print("| \(name) | \(String(format: "%.2f ms", milliseconds)) |")
    return median
}

/// `#require` for a benchmark: stops the run with a message.
private func `require`<T>(_ value: T?, _ what: String = "a value") throws -> T {
    guard let value else { throw BenchmarkSetupError(what: what) }
    return value
}

private struct BenchmarkSetupError: Error {
    let what: String
}
