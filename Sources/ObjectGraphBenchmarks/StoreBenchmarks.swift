import Foundation
import ObjectGraph

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The item as a plain Codable struct, for Foundation's JSON coders as a reference.
struct PlainItem: Codable {
    var name: String
    var price: Int64
    var weight: Double
    var createdAt: Date
    var id: UUID
}

/// Prints a row whose value is not a time.
func report(_ name: String, _ value: String) {
    if let only, !name.contains(only) { return }
    print("| \(name) | \(value) |")
}

/// The file-store workloads of issue 3, for the binary, JSON and SQLite stores, with the
/// physical floor and Foundation's coders measured in the same run.
func runStoreBenchmarks(count: Int) throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("objectgraph-bench-\(UUID())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }

    try measureWriteAndSyncFloor(in: directory)
    measureFoundationCoders(count: count)

    let kinds: [(String, (URL) -> any PersistentStore)] = [
        ("binary", { BinaryFileStore(url: $0) }), ("JSON", { JSONFileStore(url: $0) }),
        ("SQLite", { SQLiteStore(url: $0) }),
    ]
    for (label, makeStore) in kinds {
        var file = directory.appendingPathComponent("bench-\(label)-0")
        var round = 0
        try measureTimed("\(label): insert + save \(count) objects", iterations: 1, repetitions: 3) {
            round += 1
            file = directory.appendingPathComponent("bench-\(label)-\(round)")
            let container = try PersistentContainer(model: model, store: makeStore(file))
            let context = container.newContext()
            fill(context, count: count)
            let start = ContinuousClock.now
            try context.save()
            return ContinuousClock.now - start
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0
        report(
            "\(label): file size for \(count) objects", "\(size / 1024) KiB (\(size / max(count, 1)) bytes per object)")
        try measure("\(label): open + load \(count) objects", iterations: 1, repetitions: 5) {
            let container = try PersistentContainer(model: model, store: makeStore(file))
            let loaded = try container.newContext().count(for: Item.fetchRequest())
            precondition(loaded == count)
        }
        let container = try PersistentContainer(model: model, store: makeStore(file))
        let context = container.newContext()
        var request = Item.fetchRequest()
        request.fetchLimit = 1
        guard let item = try context.fetch(request).first else { continue }  // skipped by --only
        var price: Int64 = 0
        try measure("\(label): change one object + save, \(count)-object store", iterations: label == "JSON" ? 3 : 200)
        {
            price += 1
            item.price = price
            try context.save()
        }
        try measureTimed("\(label): delete all + save", iterations: 1, repetitions: 1) {
            let start = ContinuousClock.now
            try context.deleteAll(Item.self)
            return ContinuousClock.now - start
        }
    }
}

/// The physical floor of a durable save: a 4 KiB write and an fsync.
private func measureWriteAndSyncFloor(in directory: URL) throws {
    let path = directory.appendingPathComponent("floor").path
    let descriptor = open(path, O_RDWR | O_CREAT, 0o600)
    precondition(descriptor >= 0)
    defer { close(descriptor) }
    let block = [UInt8](repeating: 0xAB, count: 4096)
    var offset: off_t = 0
    measure("floor: 4 KiB append + fsync", iterations: 200) {
        _ = block.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, 4096, offset) }
        offset += 4096
        fsync(descriptor)
    }
}

private func measureFoundationCoders(count: Int) {
    if let only, !"reference: Foundation JSON".contains(only) && !only.contains("Foundation") { return }
    let items = (0..<count).map { index in
        PlainItem(
            name: "item \(index)", price: Int64(index % 1_000), weight: Double(index) / 10,
            createdAt: Date(timeIntervalSinceReferenceDate: Double(index)), id: UUID())
    }
    var encoded = Data()
    measure("reference: Foundation JSONEncoder, \(count) Codable structs", iterations: 1, repetitions: 3) {
        encoded = try! JSONEncoder().encode(items)
    }
    measure("reference: Foundation JSONDecoder, \(count) Codable structs", iterations: 1, repetitions: 3) {
        precondition(try! JSONDecoder().decode([PlainItem].self, from: encoded).count == count)
    }
}
