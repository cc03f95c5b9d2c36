import Foundation
import GRDB
import ObjectGraph

// Issue 22: ObjectGraph's SQLite store against GRDB's record API and raw SQLite statements on the
// same SQLite build, all three on files in WAL mode with synchronous=FULL.
//     .build/release/objectgraph-vs-grdb --sqlite-store [--quick] [--only WORD]
//     .build/release/objectgraph-vs-grdb --scale 1000000      (the scale table; builds the file once)

/// The W1–W6 workloads with ObjectGraph on its SQLite store.
func runSQLiteStoreComparison(inputs: [Input], newPath: @escaping (String) -> String) throws {
    let count = inputs.count
    print("| Workload (median per iteration) | ObjectGraph SQLite store | GRDB | raw SQLite | OG/GRDB | OG/raw |")
    print("|---|---|---|---|---|---|")
    let setupInputs = Array(inputs.prefix(10)).enumerated().map { index, input in
        var input = input
        input.price = Int64(index * 50)
        return input
    }
    let setupExpected = setupInputs.filter { $0.price > 100 }.count
    let setupPredicate = try FetchPredicate(format: "price > %d", 100)
    try compare(
        "S1 test setup on a new file: schema, insert 10, save, fetch price > 100 sorted by name", iterations: 20,
        objectGraph: {
            let url = URL(fileURLWithPath: newPath("sqlite"))
            return try timed {
                let container = try PersistentContainer(model: model, storeDescription: .sqliteFile(url))
                let context = container.newContext()
                fill(context, setupInputs)
                try context.save()
                var request = Item.fetchRequest()
                request.predicate = setupPredicate
                request.sortDescriptors = [SortDescriptor(key: "name", ascending: true)]
                try check(context.fetch(request).count == setupExpected)
            }
        },
        grdb: {
            let path = newPath("sqlite")
            return try timed {
                let pool = try openPool(path)
                try pool.write { db in
                    try GRDBItem.createTable(db, indexed: false)
                    try insert(db, setupInputs)
                }
                let found = try pool.read { db in
                    try GRDBItem.filter(sql: "price > 100").order(Column("name")).fetchAll(db)
                }
                precondition(found.count == setupExpected)
            }
        },
        raw: {
            let path = newPath("sqlite")
            return timed {
                let database = openRawFile(path)
                database.execute(RawItem.createTable)
                database.transaction { RawItem.insert(database, setupInputs) }
                let select = database.prepare("\(RawItem.selectAll) WHERE price > 100 ORDER BY name")
                precondition(RawItem.fetchAll(select).count == setupExpected)
            }
        })

    var ourPath = ""
    var grdbPath = ""
    var rawPath = ""
    for indexed in [false, true] {
        try compare(
            "S2 insert + save \(count) objects\(indexed ? " (index on price)" : "")", iterations: 1,
            objectGraph: {
                let path = newPath("sqlite")
                if indexed { ourPath = path }
                let container = try PersistentContainer(
                    model: model, storeDescription: .sqliteFile(URL(fileURLWithPath: path)))
                let context = container.newContext()
                return try timed {
                    if indexed { fillIndexed(context, inputs) } else { fill(context, inputs) }
                    try context.save()
                }
            },
            grdb: {
                let path = newPath("sqlite")
                if indexed { grdbPath = path }
                let pool = try openPool(path)
                try pool.write { try GRDBItem.createTable($0, indexed: indexed) }
                return try timed { try pool.write { try insert($0, inputs) } }
            },
            raw: {
                let path = newPath("sqlite")
                if indexed { rawPath = path }
                let database = openRawFile(path)
                database.execute(RawItem.createTable)
                if indexed { database.execute("CREATE INDEX item_price ON item(price)") }
                return timed { database.transaction { RawItem.insert(database, inputs) } }
            })
    }
    guard !ourPath.isEmpty, !grdbPath.isEmpty, !rawPath.isEmpty else { return }
    let ourURL = URL(fileURLWithPath: ourPath)

    try compare(
        "S3 open a \(count)-object file, load every object", iterations: 1,
        objectGraph: {
            try timed {
                let container = try PersistentContainer(model: model, storeDescription: .sqliteFile(ourURL))
                try check(container.newContext().fetch(IndexedItem.fetchRequest()).count == count)
            }
        },
        grdb: {
            try timed {
                let queue = try DatabaseQueue(path: grdbPath)
                try check(queue.read { try GRDBItem.fetchAll($0) }.count == count)
            }
        },
        raw: {
            timed {
                let database = RawDatabase(rawPath)
                precondition(RawItem.fetchAll(database.prepare(RawItem.selectAll)).count == count)
            }
        })

    let expectedW4 = inputs.filter { (100...200).contains($0.price) && $0.name.hasPrefix("a") }.count
    let container = try PersistentContainer(model: model, storeDescription: .sqliteFile(ourURL))
    let pool = try openPool(grdbPath)
    let rawDatabase = openRawFile(rawPath)
    let rawSelect = rawDatabase.prepare(
        "\(RawItem.selectAll) WHERE price BETWEEN 100 AND 200 AND name GLOB 'a*' ORDER BY price")
    let predicate = try FetchPredicate(format: "price BETWEEN {100, 200} AND name BEGINSWITH %@", "a")
    try compare(
        "S4 fetch price BETWEEN 100 AND 200 AND name BEGINSWITH 'a' sorted by price, indexed (\(expectedW4) of \(count))",
        iterations: 10,
        objectGraph: {
            try timed {
                var request = IndexedItem.fetchRequest()
                request.predicate = predicate
                request.sortDescriptors = [SortDescriptor(key: "price")]
                try check(container.newContext().fetch(request).count == expectedW4)
            }
        },
        grdb: {
            try timed {
                let found = try pool.read { db in
                    try GRDBItem.filter(sql: "price BETWEEN 100 AND 200 AND name GLOB 'a*'")
                        .order(Column("price")).fetchAll(db)
                }
                precondition(found.count == expectedW4)
            }
        },
        raw: { timed { precondition(RawItem.fetchAll(rawSelect).count == expectedW4) } })

    let expectedCount = inputs.filter { $0.price == 7 }.count
    let rawCount = rawDatabase.prepare("SELECT COUNT(*) FROM item WHERE price = 7")
    try compare(
        "S4 count price == 7, indexed (\(expectedCount) of \(count))", iterations: 20,
        objectGraph: {
            try timed {
                var request = IndexedItem.fetchRequest()
                request.predicate = try FetchPredicate(format: "price == 7")
                try check(container.newContext().count(for: request) == expectedCount)
            }
        },
        grdb: {
            try timed {
                try check(pool.read { try GRDBItem.filter(sql: "price = 7").fetchCount($0) } == expectedCount)
            }
        },
        raw: { timed { precondition(rawCount.scalar() == Int64(expectedCount)) } })

    let context = container.newContext()
    var first = IndexedItem.fetchRequest()
    first.fetchLimit = 1
    let item = try context.fetch(first)[0]
    var record = try pool.read { try GRDBItem.fetchOne($0)! }
    let rawUpdate = rawDatabase.prepare("UPDATE item SET price = ? WHERE id = 1")
    var price: Int64 = 1_000_000
    try compare(
        "S5 change one object + save (fsync), \(count)-object file", iterations: 50,
        objectGraph: {
            price += 1
            return try timed {
                item.price = price
                try context.save()
            }
        },
        grdb: {
            price += 1
            return try timed {
                record.price = price
                try pool.write { try record.update($0) }
            }
        },
        raw: {
            price += 1
            return timed {
                rawUpdate.bind(1, price)
                _ = rawUpdate.step()
                rawUpdate.reset()
            }
        })

    try compare(
        "S6 delete all \(count) objects + save", iterations: 1, repetitions: 1,
        objectGraph: {
            let context = container.newContext()
            return try timed {
                try check(context.deleteAll(IndexedItem.self) == count)
            }
        },
        grdb: { try timed { _ = try pool.write { try GRDBItem.deleteAll($0) } } },
        raw: { timed { rawDatabase.transaction { rawDatabase.execute("DELETE FROM item") } } })
}

/// `precondition` for a condition that throws to compute.
func check(_ condition: @autoclosure () throws -> Bool, line: Int = #line) throws {
    let holds = try condition()
    precondition(holds, "check failed at line \(line)")
}
