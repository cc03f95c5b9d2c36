import Foundation
import ObjectGraph

// Issue 22's scale table: a SQLite store of N objects (IndexedItem, index on price), each
// measurement in a child process of its own so that its peak memory is its own.
//     .build/release/objectgraph-vs-grdb --scale 1000000 [--scale-file PATH]

/// Builds the file (if it is not there yet) and prints the table.
func runScaleTable(objects: Int, path: String) throws {
    if !FileManager.default.fileExists(atPath: path) {
        let start = ContinuousClock.now
        let container = try PersistentContainer(model: model, storeDescription: .sqliteFile(URL(fileURLWithPath: path)))
        var made = 0
        while made < objects {
            let context = container.newContext()
            let chunk = Input.make(count: min(100_000, objects - made), from: made)
            fillIndexed(context, chunk)
            try context.save()
            made += chunk.count
        }
        print("built \(objects) objects in \(ContinuousClock.now - start)")
    }
    print("| \(objects) objects | time | peak resident (VmHWM) | resident after |")
    print("|---|---|---|---|")
    for operation in ["open", "open+fetch100", "count", "iterate"] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments = ["--scale-child", operation, path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        process.waitUntilExit()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        print(output.trimmingCharacters(in: .whitespacesAndNewlines))
    }
}

/// One measurement, in a child process: prints a table row.
func runScaleChild(_ operation: String, path: String) throws {
    let start = ContinuousClock.now
    let container = try PersistentContainer(model: model, storeDescription: .sqliteFile(URL(fileURLWithPath: path)))
    let context = container.newContext()
    var detail = ""
    switch operation {
    case "open":
        break
    case "open+fetch100":
        var request = IndexedItem.fetchRequest()
        request.predicate = try FetchPredicate(format: "price == 7")
        request.fetchLimit = 100
        let found = try context.fetch(request)
        precondition(found.count == 100 && found.allSatisfy { $0.price == 7 })
        detail = " (price == 7, limit 100)"
    case "count":
        var request = IndexedItem.fetchRequest()
        request.predicate = try FetchPredicate(format: "price BETWEEN {100, 199}")
        detail = " (price BETWEEN 100 AND 199: \(try context.count(for: request)))"
    default:
        var request = IndexedItem.fetchRequest()
        request.fetchBatchSize = 1_000
        var total: Int64 = 0
        var visited = 0
        for page in try context.fetchBatches(request) {
            for item in page { total &+= item.price }
            visited += page.count
        }
        detail = " (\(visited) objects, batches of 1000)"
    }
    let elapsed = ContinuousClock.now - start
    let memory = memoryStatus()
    print("| \(operation)\(detail) | \(format(elapsed)) | \(memory.peak / 1024) MiB | \(memory.resident / 1024) MiB |")
    withExtendedLifetime((container, context)) {}
}
