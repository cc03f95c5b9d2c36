import Foundation
import ObjectGraph

// Issue 24: peak memory while inserting many small objects in one save, in memory, against an
// in-memory SQLite database filled in one transaction. Each side runs in a child process of its
// own, so that its peak (VmHWM) is its own; the row reports the peak above the child's resident
// size at its start.
//     .build/release/objectgraph-vs-grdb --only "peak RSS inserting"
//     .build/release/objectgraph-vs-grdb --insert-peak-child og 1000000   (one side)

/// The small object: a short name (stored inline in the string, as SQLite stores it in the row)
/// and a number.
final class SmallItem: ManagedObject {
    @Attribute var name = ""
    @Attribute var number: Int64 = 0
}

/// The objects the workload inserts.
let insertPeakObjects = quick ? 100_000 : 1_000_000

/// The row's name.
let insertPeakName =
    "peak RSS inserting \(insertPeakObjects) small objects in one save (VmHWM above the start): in memory vs an in-memory SQLite database"

/// One side, in a child process: prints the resident size at the start, the peak, and the rows
/// inserted (kB, kB, count).
func runInsertPeakChild(_ side: String, objects: Int) throws {
    let before = memoryStatus().resident
    var inserted = 0
    if side == "og" {
        let container = try PersistentContainer(
            model: ManagedObjectModel(SmallItem.self), storeDescription: .inMemory)
        let context = container.newContext()
        for number in 0..<objects {
            let item = SmallItem(context: context)
            item.name = "item \(number)"
            item.number = Int64(number)
        }
        try context.save()
        inserted = try context.count(for: SmallItem.fetchRequest())
        let after = memoryStatus()
        print(before, after.peak, inserted)
        withExtendedLifetime((container, context)) {}
    } else {
        let database = RawDatabase()
        database.execute("CREATE TABLE small (id INTEGER PRIMARY KEY, name TEXT NOT NULL, number INTEGER NOT NULL)")
        let insert = database.prepare("INSERT INTO small (name, number) VALUES (?, ?)")
        database.transaction {
            for number in 0..<objects {
                insert.bind(1, "item \(number)")
                insert.bind(2, Int64(number))
                insert.step()
                insert.reset()
            }
        }
        let count = database.prepare("SELECT count(*) FROM small")
        count.step()
        inserted = Int(count.int64(0))
        let after = memoryStatus()
        print(before, after.peak, inserted)
        withExtendedLifetime((database, insert, count)) {}
    }
}

/// Runs both sides in child processes and prints the row.
func runInsertPeakComparison() throws {
    func child(_ side: String) throws -> Int {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments = ["--insert-peak-child", side, "\(insertPeakObjects)"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let fields = output.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        precondition(fields.count == 3 && fields[2] == insertPeakObjects, "child \(side) printed \(output)")
        return fields[1] - fields[0]
    }
    let ours = try child("og")
    let theirs = try child("raw")
    print(
        "| \(insertPeakName) | \(ours / 1024) MiB (\(ours * 1024 / insertPeakObjects) B/object) | — | \(theirs / 1024) MiB (\(theirs * 1024 / insertPeakObjects) B/object) | | \(String(format: "%.2f", Double(ours) / Double(theirs))) |"
    )
}
