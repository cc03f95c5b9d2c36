// ObjectGraph vs GRDB/SQLite, issue 8. Build and run in release mode, on an idle machine:
//     cd Benchmarks && swift build -c release && .build/release/objectgraph-vs-grdb [--quick]
import Foundation
import GRDB
import ObjectGraph

let model = try ManagedObjectModel(Item.self, IndexedItem.self)

// Child-process mode for the memory figures: `--rss og|grdb FILE` loads every object of FILE and
// prints "before peak resident" in kB.
if let flag = arguments.firstIndex(of: "--rss") {
    let side = arguments[flag + 1]
    let path = arguments[flag + 2]
    let before = memoryStatus().resident
    var loaded = 0
    if side == "og" {
        let container = try PersistentContainer(model: model, storeDescription: .binaryFile(URL(fileURLWithPath: path)))
        let context = container.newContext()
        let items = try context.fetch(Item.fetchRequest())
        loaded = items.count
        let after = memoryStatus()
        print(before, after.peak, after.resident, loaded)
        withExtendedLifetime((container, context, items)) {}
    } else if side == "raw" {
        let database = RawDatabase(path)
        let items = RawItem.fetchAll(database.prepare(RawItem.selectAll))
        loaded = items.count
        let after = memoryStatus()
        print(before, after.peak, after.resident, loaded)
        withExtendedLifetime((database, items)) {}
    } else {
        let queue = try DatabaseQueue(path: path)
        let items = try queue.read { try GRDBItem.fetchAll($0) }
        loaded = items.count
        let after = memoryStatus()
        print(before, after.peak, after.resident, loaded)
        withExtendedLifetime((queue, items)) {}
    }
    exit(0)
}

// Peak memory inserting many small objects in one save (issue 24): one side, in a child.
if let flag = arguments.firstIndex(of: "--insert-peak-child"), let objects = Int(arguments[flag + 2]) {
    try runInsertPeakChild(arguments[flag + 1], objects: objects)
    exit(0)
}

// The SQLite store's scale table (issue 22): `--scale N [--scale-file PATH]`, and its children.
if let flag = arguments.firstIndex(of: "--scale-child") {
    try runScaleChild(arguments[flag + 1], path: arguments[flag + 2])
    exit(0)
}
if let flag = arguments.firstIndex(of: "--scale"), let objects = Int(arguments[flag + 1]) {
    let path = arguments.firstIndex(of: "--scale-file").map { arguments[$0 + 1] }
    try runScaleTable(objects: objects, path: path ?? "/tmp/objectgraph-scale-\(objects).sqlite")
    exit(0)
}

let inputs = Input.make(count: count)
let directory = FileManager.default.temporaryDirectory.appendingPathComponent("og-vs-grdb-\(UUID())")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: directory) }
func newPath(_ suffix: String) -> String {
    directory.appendingPathComponent("file-\(UUID()).\(suffix)").path
}

// ObjectGraph's SQLite store against GRDB and raw SQLite (issue 22): `--sqlite-store`.
if arguments.contains("--sqlite-store") {
    try runSQLiteStoreComparison(inputs: inputs, newPath: newPath)
    exit(0)
}

print("| Workload (median per iteration) | ObjectGraph | GRDB | raw SQLite | OG/GRDB | OG/raw |")
print("|---|---|---|---|---|---|")

// MARK: - W1 test setup

let setupInputs = Array(inputs.prefix(10)).enumerated().map { index, input in
    var input = input
    input.price = Int64(index * 50)  // 0...450: 7 of 10 above 100
    return input
}
let setupExpected = setupInputs.filter { $0.price > 100 }.count
let setupPredicate = try FetchPredicate(format: "price > %d", 100)
try compare(
    "W1 test setup: in-memory, schema, insert 10, save, fetch price > 100 sorted by name", iterations: 2_000,
    objectGraph: {
        try timed {
            let container = try PersistentContainer(model: model, storeDescription: .inMemory)
            let context = container.newContext()
            fill(context, setupInputs)
            try context.save()
            var request = Item.fetchRequest()
            request.predicate = setupPredicate
            request.sortDescriptors = [SortDescriptor(key: "name", ascending: true)]
            let fetched = try context.fetch(request)
            precondition(fetched.count == setupExpected)
        }
    },
    grdb: {
        try timed {
            let queue = try DatabaseQueue()
            try queue.write { db in
                try GRDBItem.createTable(db, indexed: false)
                try insert(db, setupInputs)
            }
            let fetched = try queue.read { db in
                try GRDBItem.filter(Column("price") > 100).order(Column("name")).fetchAll(db)
            }
            precondition(fetched.count == setupExpected)
        }
    },
    raw: {
        timed {
            let database = RawDatabase()
            database.execute(RawItem.createTable)
            database.transaction { RawItem.insert(database, setupInputs) }
            let select = database.prepare("\(RawItem.selectAll) WHERE price > 100 ORDER BY name")
            precondition(RawItem.fetchAll(select).count == setupExpected)
        }
    })

// MARK: - W2 insert + save

try compare(
    "W2 insert + save \(count) objects, in memory", iterations: 1,
    objectGraph: {
        let container = try PersistentContainer(model: model, storeDescription: .inMemory)
        let context = container.newContext()
        return try timed {
            fill(context, inputs)
            try context.save()
        }
    },
    grdb: {
        let queue = try DatabaseQueue()
        try queue.write { try GRDBItem.createTable($0, indexed: false) }
        return try timed { try queue.write { try insert($0, inputs) } }
    },
    raw: {
        let database = RawDatabase()
        database.execute(RawItem.createTable)
        return timed { database.transaction { RawItem.insert(database, inputs) } }
    })

var binaryPath = ""
var jsonPath = ""
var sqlitePath = ""
var rawPath = ""
for kind in ["binary", "JSON"] {
    try compare(
        "W2 insert + save \(count) objects, \(kind) file vs SQLite file (WAL, synchronous=FULL)", iterations: 1,
        objectGraph: {
            let path = newPath(kind == "binary" ? "store" : "json")
            if kind == "binary" { binaryPath = path } else { jsonPath = path }
            let url = URL(fileURLWithPath: path)
            let container = try PersistentContainer(
                model: model, storeDescription: kind == "binary" ? .binaryFile(url) : .jsonFile(url))
            let context = container.newContext()
            return try timed {
                fill(context, inputs)
                try context.save()
            }
        },
        grdb: {
            sqlitePath = newPath("sqlite")
            let pool = try openPool(sqlitePath)
            try pool.write { try GRDBItem.createTable($0, indexed: false) }
            return try timed { try pool.write { try insert($0, inputs) } }
        },
        raw: {
            rawPath = newPath("raw.sqlite")
            let database = openRawFile(rawPath)
            database.execute(RawItem.createTable)
            return timed { database.transaction { RawItem.insert(database, inputs) } }
        })
}
/// Whether the W2 files exist (`--only` may have skipped them): W3, W5 and the sizes need them.
let haveFiles = !binaryPath.isEmpty && !jsonPath.isEmpty && !sqlitePath.isEmpty && !rawPath.isEmpty
// Fold the WAL into the database file, so that the file sizes compare.
if haveFiles {
    let pool = try openPool(sqlitePath)
    _ = try pool.writeWithoutTransaction { try $0.checkpoint(.truncate) }
    RawDatabase(rawPath).execute("PRAGMA wal_checkpoint(TRUNCATE)")
}

// MARK: - W3 open + load all

for (kind, path) in [("binary", binaryPath), ("JSON", jsonPath)] where haveFiles {
    try compare(
        "W3 open a \(count)-object store, load every object: \(kind) vs SQLite", iterations: 1,
        objectGraph: {
            try timed {
                let url = URL(fileURLWithPath: path)
                let container = try PersistentContainer(
                    model: model, storeDescription: kind == "binary" ? .binaryFile(url) : .jsonFile(url))
                let items = try container.newContext().fetch(Item.fetchRequest())
                precondition(items.count == count)
            }
        },
        grdb: {
            try timed {
                let queue = try DatabaseQueue(path: sqlitePath)
                let items = try queue.read { try GRDBItem.fetchAll($0) }
                precondition(items.count == count)
            }
        },
        raw: {
            timed {
                let database = RawDatabase(rawPath)
                precondition(RawItem.fetchAll(database.prepare(RawItem.selectAll)).count == count)
            }
        })
}

// MARK: - W4 fetch with a predicate

let expectedW4 = inputs.filter { (100...200).contains($0.price) && $0.name.hasPrefix("a") }.count
for indexed in [false, true] {
    let container = try PersistentContainer(model: model, storeDescription: .inMemory)
    let filler = container.newContext()
    if indexed { fillIndexed(filler, inputs) } else { fill(filler, inputs) }
    try filler.save()
    let queue = try DatabaseQueue()
    try queue.write { db in
        try GRDBItem.createTable(db, indexed: indexed)
        try insert(db, inputs)
    }
    let rawDatabase = RawDatabase()
    rawDatabase.execute(RawItem.createTable)
    rawDatabase.transaction { RawItem.insert(rawDatabase, inputs) }
    if indexed { rawDatabase.execute("CREATE INDEX item_price ON item(price)") }
    let rawSelect = rawDatabase.prepare(
        "\(RawItem.selectAll) WHERE price BETWEEN 100 AND 200 AND name GLOB 'a*' ORDER BY price")
    let predicate = try FetchPredicate(format: "price BETWEEN {100, 200} AND name BEGINSWITH %@", "a")
    let sort = [SortDescriptor(key: "price", ascending: true)]
    try compare(
        "W4 fetch price BETWEEN 100 AND 200 AND name BEGINSWITH 'a' sorted by price, \(indexed ? "indexed" : "no index") (\(expectedW4) of \(count))",
        iterations: 10,
        objectGraph: {
            try timed {
                let context = container.newContext()
                let found: Int
                if indexed {
                    var request = IndexedItem.fetchRequest()
                    request.predicate = predicate
                    request.sortDescriptors = sort
                    found = try context.fetch(request).count
                } else {
                    var request = Item.fetchRequest()
                    request.predicate = predicate
                    request.sortDescriptors = sort
                    found = try context.fetch(request).count
                }
                precondition(found == expectedW4)
            }
        },
        grdb: {
            try timed {
                // GLOB is case-sensitive, as BEGINSWITH is (LIKE is not in SQLite).
                let found = try queue.read { db in
                    try GRDBItem.filter(sql: "price BETWEEN 100 AND 200 AND name GLOB 'a*'")
                        .order(Column("price")).fetchAll(db)
                }
                precondition(found.count == expectedW4)
            }
        },
        raw: {
            timed { precondition(RawItem.fetchAll(rawSelect).count == expectedW4) }
        })
}

// MARK: - W5 change one object + save, on disk

for (kind, path) in [("binary", binaryPath), ("JSON", jsonPath)] where haveFiles {
    let url = URL(fileURLWithPath: path)
    let container = try PersistentContainer(
        model: model, storeDescription: kind == "binary" ? .binaryFile(url) : .jsonFile(url))
    let context = container.newContext()
    var request = Item.fetchRequest()
    request.predicate = try FetchPredicate(format: "name == %@", inputs[0].name)
    let item = try context.fetch(request)[0]
    let pool = try openPool(sqlitePath)
    var record = try pool.read { try GRDBItem.filter(Column("name") == inputs[0].name).fetchOne($0)! }
    var ourPrice: Int64 = 1_000_000
    var theirPrice: Int64 = 1_000_000
    var rawPrice: Int64 = 1_000_000
    let rawDatabase = openRawFile(rawPath)
    let rawUpdate = rawDatabase.prepare("UPDATE item SET price = ? WHERE id = ?")
    let rawID = try pool.read { try Int64.fetchOne($0, sql: "SELECT id FROM item WHERE name = ?", arguments: [inputs[0].name])! }
    try compare(
        "W5 change one object + save (fsync), \(count)-object store: \(kind) vs SQLite WAL synchronous=FULL",
        iterations: kind == "binary" ? 100 : 3,
        objectGraph: {
            ourPrice += 1
            let sizeBefore = fileSize(path)
            let duration = try timed {
                item.price = ourPrice
                try context.save()
            }
            // Each save must write: the binary store appends a frame; JSON rewrites the file.
            precondition(kind == "JSON" || fileSize(path) > sizeBefore)
            return duration
        },
        grdb: {
            theirPrice += 1
            var changes = 0
            let duration = try timed {
                record.price = theirPrice
                try pool.write { db in
                    try record.update(db)
                    changes = db.changesCount
                }
            }
            precondition(changes == 1)
            return duration
        },
        raw: {
            rawPrice += 1
            let duration = timed {
                rawUpdate.bind(1, rawPrice)
                rawUpdate.bind(2, rawID)
                rawUpdate.step()
                rawUpdate.reset()
            }
            precondition(rawDatabase.changes == 1)
            return duration
        })
    // Read back from fresh connections: the last value of each side reached the files.
    _ = try pool.writeWithoutTransaction { try $0.checkpoint(.truncate) }
    let storedTheirs = try DatabaseQueue(path: sqlitePath).read {
        try Int64.fetchOne($0, sql: "SELECT price FROM item WHERE name = ?", arguments: [inputs[0].name])
    }
    precondition(storedTheirs == theirPrice)
    if kind == "JSON" {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        precondition(text.contains("\(ourPrice)"))
    }
}

// MARK: - Sizes and memory

if haveFiles {
    let binarySize = fileSize(binaryPath)
    let jsonSize = fileSize(jsonPath)
    let sqliteSize = fileSize(sqlitePath) + fileSize(sqlitePath + "-wal")
    print(
        "| bytes per object on disk: binary / JSON vs SQLite | \(binarySize / count) / \(jsonSize / count) | \(sqliteSize / count) | \(fileSize(rawPath) / count) | \(String(format: "%.2f", Double(binarySize) / Double(sqliteSize))) (binary) | |"
    )
}

func childMemory(_ side: String, _ path: String) throws -> (peak: Int, perObject: Double) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
    process.arguments = ["--rss", side, path]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    let fields = output.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
    precondition(fields.count == 4 && fields[3] == count, "child \(side) printed \(output)")
    return (fields[1], Double(fields[1] - fields[0]) * 1024 / Double(count))
}
if haveFiles {
    let ourMemory = try childMemory("og", binaryPath)
    let theirMemory = try childMemory("grdb", sqlitePath)
    let rawMemory = try childMemory("raw", rawPath)
    print(
        "| peak RSS after loading \(count) objects (VmHWM; per object above the process's start) | \(ourMemory.peak / 1024) MiB (\(Int(ourMemory.perObject)) B/object) | \(theirMemory.peak / 1024) MiB (\(Int(theirMemory.perObject)) B/object) | \(rawMemory.peak / 1024) MiB (\(Int(rawMemory.perObject)) B/object) | \(String(format: "%.2f", ourMemory.perObject / theirMemory.perObject)) | \(String(format: "%.2f", ourMemory.perObject / rawMemory.perObject)) |"
    )
}

if only.map(insertPeakName.contains) ?? true { try runInsertPeakComparison() }

// MARK: - W6 delete all + save

// The Core Data way to delete everything without loading objects is a batch delete request;
// `context.deleteAll(_:)` takes the same path when the context has no unsaved changes (a second
// row measures it). SQLite: `DELETE FROM item` without a WHERE clause (its truncate
// optimization).
for (label, useDeleteAll) in [("BatchDeleteRequest", false), ("context.deleteAll", true)] {
    try compare(
        "W6 delete all \(count) + save, in memory: \(label) vs DELETE FROM item", iterations: 1, repetitions: 3,
        objectGraph: {
            let container = try PersistentContainer(model: model, storeDescription: .inMemory)
            let context = container.newContext()
            fill(context, inputs)
            try context.save()
            context.reset()
            return try timed {
                let deleted =
                    useDeleteAll
                    ? try context.deleteAll(Item.self) : try context.execute(BatchDeleteRequest(Item.self)).count
                precondition(deleted == count)
            }
        },
        grdb: {
            let queue = try DatabaseQueue()
            try queue.write { db in
                try GRDBItem.createTable(db, indexed: false)
                try insert(db, inputs)
            }
            return try timed {
                let deleted = try queue.write { try GRDBItem.deleteAll($0) }
                precondition(deleted == count)
            }
        },
        raw: {
            let database = RawDatabase()
            database.execute(RawItem.createTable)
            database.transaction { RawItem.insert(database, inputs) }
            let delete = database.prepare("DELETE FROM item")
            return timed {
                delete.step()
                precondition(database.changes == count)
                delete.reset()
            }
        })
}
try compare(
    "W6 delete all \(count) + save, BatchDeleteRequest: binary vs SQLite WAL synchronous=FULL", iterations: 1,
    repetitions: 3,
    objectGraph: {
        let url = URL(fileURLWithPath: newPath("store"))
        let elapsed: Duration
        do {
            let container = try PersistentContainer(model: model, storeDescription: .binaryFile(url))
            let context = container.newContext()
            fill(context, inputs)
            try context.save()
            context.reset()
            let before = fileSize(url.path)
            elapsed = try timed {
                let deleted = try context.execute(BatchDeleteRequest(Item.self)).count
                precondition(deleted == count)
            }
            // The save changed the file: a delete-all record appended (or a compaction).
            precondition(fileSize(url.path) != before, "the timed delete did not change the store file")
        }
        let reopened = try PersistentContainer(model: model, storeDescription: .binaryFile(url))
        let left = try reopened.newContext().count(for: Item.fetchRequest())
        precondition(left == 0)
        return elapsed
    },
    grdb: {
        let path = newPath("sqlite")
        let pool = try openPool(path)
        try pool.write { db in
            try GRDBItem.createTable(db, indexed: false)
            try insert(db, inputs)
        }
        let elapsed = try timed {
            let deleted = try pool.write { try GRDBItem.deleteAll($0) }
            precondition(deleted == count)
        }
        // A fresh connection reads the committed (WAL) state: no rows left.
        let check = try DatabaseQueue(path: path)
        let left = try check.read { try GRDBItem.fetchCount($0) }
        precondition(left == 0)
        return elapsed
    },
    raw: {
        let path = newPath("raw.sqlite")
        let database = openRawFile(path)
        database.execute(RawItem.createTable)
        database.transaction { RawItem.insert(database, inputs) }
        let delete = database.prepare("DELETE FROM item")
        return timed {
            delete.step()
            precondition(database.changes == count)
            delete.reset()
        }
    })

// MARK: - Issue 24: string operators, delete rules, sorting by a string, updates, JSON open

try runStringOperatorWorkloads(count: count)
try runStringVariantWorkloads(count: count)
try runDeleteRuleWorkloads()
try runSortByStringWorkloads(inputs, model: model)
try runSortVariantWorkloads(inputs, model: model)
try runUpdateWorkloads(inputs, model: model)
try runJSONOpenWorkloads(inputs, directory: directory, model: model)
