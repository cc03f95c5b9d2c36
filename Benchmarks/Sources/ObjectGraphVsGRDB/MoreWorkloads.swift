import Foundation
import GRDB
import ObjectGraph

/// Every object sorted by a string attribute: a fetch into a new context, and object IDs only,
/// vs `ORDER BY name` (SQLite's binary collation: the same order for these ASCII names).
func runSortByStringWorkloads(_ inputs: [Input], model: ManagedObjectModel) throws {
    if let only, !only.hasPrefix("sort") { return }
    let container = try PersistentContainer(model: model, storeDescription: .inMemory)
    let filler = container.newContext()
    fill(filler, inputs)
    try filler.save()
    let queue = try DatabaseQueue()
    try queue.write { db in
        try GRDBItem.createTable(db, indexed: false)
        try insert(db, inputs)
    }
    let database = RawDatabase()
    database.execute(RawItem.createTable)
    database.transaction { RawItem.insert(database, inputs) }
    let select = database.prepare("\(RawItem.selectAll) ORDER BY name")
    let selectIDs = database.prepare("SELECT id FROM item ORDER BY name")
    let sorted = inputs.map(\.name).sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) })
    var request = Item.fetchRequest()
    request.sortDescriptors = [SortDescriptor(key: "name", ascending: true)]
    try compare(
        "sort all \(inputs.count) by name (String): fetch into a new context vs ORDER BY name", iterations: 1,
        objectGraph: {
            try timed {
                let items = try container.newContext().fetch(request)
                precondition(items.count == inputs.count && items.first?.name == sorted.first)
            }
        },
        grdb: {
            try timed {
                let items = try queue.read { try GRDBItem.order(Column("name")).fetchAll($0) }
                precondition(items.count == inputs.count && items.first?.name == sorted.first)
            }
        },
        raw: {
            timed {
                let items = RawItem.fetchAll(select)
                precondition(items.count == inputs.count && items.first?.name == sorted.first)
            }
        })
    let context = container.newContext()
    try compare(
        "sort all \(inputs.count) by name (String): fetchObjectIDs vs SELECT id ORDER BY name", iterations: 1,
        objectGraph: {
            try timed {
                let ids = try context.fetchObjectIDs(request)
                precondition(ids.count == inputs.count)
            }
        },
        grdb: {
            try timed {
                let ids = try queue.read { try Int64.fetchAll($0, sql: "SELECT id FROM item ORDER BY name") }
                precondition(ids.count == inputs.count)
            }
        },
        raw: {
            timed {
                var ids: [Int64] = []
                while selectIDs.step() { ids.append(selectIDs.int64(0)) }
                selectIDs.reset()
                precondition(ids.count == inputs.count)
            }
        })
}

/// Update 10,000 of the objects (10%) and save, in memory: the objects and records are loaded
/// outside the timing; SQLite runs a prepared `UPDATE … WHERE id = ?` per row in one
/// transaction.
func runUpdateWorkloads(_ inputs: [Input], model: ManagedObjectModel) throws {
    if let only, !only.hasPrefix("update") { return }
    let changed = inputs.count / 10
    let container = try PersistentContainer(model: model, storeDescription: .inMemory)
    let filler = container.newContext()
    fill(filler, inputs)
    try filler.save()
    let context = container.newContext()
    var request = Item.fetchRequest()
    request.fetchLimit = changed
    let items = try context.fetch(request)
    let queue = try DatabaseQueue()
    try queue.write { db in
        try GRDBItem.createTable(db, indexed: false)
        try insert(db, inputs)
    }
    var records = try queue.read { try GRDBItem.limit(changed).fetchAll($0) }
    let database = RawDatabase()
    database.execute(RawItem.createTable)
    database.transaction { RawItem.insert(database, inputs) }
    let update = database.prepare("UPDATE item SET weight = ? WHERE id = ?")
    var round = 0.0
    try compare(
        "update \(changed) of \(inputs.count) objects + save, in memory", iterations: 1,
        objectGraph: {
            round += 1
            return try timed {
                for item in items { item.weight = round }
                try context.save()
            }
        },
        grdb: {
            try timed {
                try queue.write { db in
                    for index in records.indices {
                        records[index].weight += 1
                        try records[index].update(db)
                    }
                }
            }
        },
        raw: {
            timed {
                database.transaction {
                    for id in 1...Int64(changed) {
                        update.bind(1, Double(id) + 0.5)
                        update.bind(2, id)
                        update.step()
                        update.reset()
                    }
                }
            }
        })
}

/// Open a 10,000-object JSON store and fetch every object vs open a SQLite file and fetch
/// every row (the JSON store is the development store: opening it is what a developer waits
/// for).
func runJSONOpenWorkloads(_ inputs: [Input], directory: URL, model: ManagedObjectModel) throws {
    if let only, !only.hasPrefix("open") { return }
    let small = Array(inputs.prefix(10_000))
    let jsonURL = directory.appendingPathComponent("open-\(UUID()).json")
    do {
        let container = try PersistentContainer(model: model, storeDescription: .jsonFile(jsonURL))
        let context = container.newContext()
        fill(context, small)
        try context.save()
    }
    let sqlitePath = directory.appendingPathComponent("open-\(UUID()).sqlite").path
    try DatabaseQueue(path: sqlitePath).write { db in
        try GRDBItem.createTable(db, indexed: false)
        try insert(db, small)
    }
    let rawPath = directory.appendingPathComponent("open-raw-\(UUID()).sqlite").path
    do {
        let database = RawDatabase(rawPath)
        database.execute(RawItem.createTable)
        database.transaction { RawItem.insert(database, small) }
    }
    try compare(
        "open a \(small.count)-object JSON store and fetch every object vs open a SQLite file and fetch every row",
        iterations: 1,
        objectGraph: {
            try timed {
                let container = try PersistentContainer(model: model, storeDescription: .jsonFile(jsonURL))
                let items = try container.newContext().fetch(Item.fetchRequest())
                precondition(items.count == small.count)
            }
        },
        grdb: {
            try timed {
                let queue = try DatabaseQueue(path: sqlitePath)
                let items = try queue.read { try GRDBItem.fetchAll($0) }
                precondition(items.count == small.count)
            }
        },
        raw: {
            timed {
                let database = RawDatabase(rawPath)
                precondition(RawItem.fetchAll(database.prepare(RawItem.selectAll)).count == small.count)
            }
        })
}
