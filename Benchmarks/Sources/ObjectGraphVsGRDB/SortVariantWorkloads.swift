import Foundation
import GRDB
import ObjectGraph

/// Names that are not ASCII, all in NFC (so that SQLite's binary collation orders them as Swift's
/// `<` does): three in four a letter with an accent and "ítem", one in four CJK.
func nonASCIISortNames(count: Int) -> [String] {
    let letters = Array("abcdefghijklmnopqrstuvwxyz")
    let accents = ["é", "ü", "ø", "ç", "ñ", "å", "ß", "ž", "ł", "ő", "α", "ж"]
    let cjk = ["項目", "日本", "中文", "한국어", "データ", "東京"]
    return (0..<count).map { index in
        index % 4 == 3
            ? "\(cjk[index % cjk.count]) \(index)"
            : "\(letters[index % 26])\(accents[index % accents.count]) ítem \(index)"
    }
}

/// Sorts of every object by a string in other shapes than the first table's: non-ASCII keys,
/// descending, case-insensitive and localized comparisons, and a string as the second key, each
/// as `fetchObjectIDs` against `SELECT id … ORDER BY` (SQLite's nearest: `COLLATE NOCASE` folds
/// ASCII only and SQLite has no locale), and non-ASCII keys also into a new context.
func runSortVariantWorkloads(_ inputs: [Input], model: ManagedObjectModel) throws {
    if let only, !only.hasPrefix("sort") { return }
    for ascii in [true, false] {
        let names = ascii ? inputs.map(\.name) : nonASCIISortNames(count: inputs.count)
        var keyed = inputs
        for index in keyed.indices { keyed[index].name = names[index] }
        let container = try PersistentContainer(model: model, storeDescription: .inMemory)
        let filler = container.newContext()
        fill(filler, keyed)
        try filler.save()
        let database = RawDatabase()
        database.execute(RawItem.createTable)
        database.transaction { RawItem.insert(database, keyed) }
        let kind = ascii ? "ASCII" : "non-ASCII"
        let first = names.min(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        if !ascii {
            var request = Item.fetchRequest()
            request.sortDescriptors = [SortDescriptor(key: "name", ascending: true)]
            let select = database.prepare("\(RawItem.selectAll) ORDER BY name")
            try compare(
                "sort all \(inputs.count) by name (\(kind)): fetch into a new context vs ORDER BY name", iterations: 1,
                objectGraph: {
                    try timed {
                        let items = try container.newContext().fetch(request)
                        precondition(items.count == inputs.count && items.first?.name == first)
                    }
                },
                grdb: nil,
                raw: {
                    timed {
                        let items = RawItem.fetchAll(select)
                        precondition(items.count == inputs.count && items.first?.name == first)
                    }
                })
        }
        let variants: [(String, [FetchSortDescriptor], String)] = [
            ("name", [SortDescriptor(key: "name")], "name"),
            ("name descending", [SortDescriptor(key: "name", ascending: false)], "name DESC"),
            (
                "name caseInsensitive", [SortDescriptor(key: "name", comparison: .caseInsensitive)],
                "name COLLATE NOCASE"
            ),
            (
                "name caseInsensitive descending",
                [SortDescriptor(key: "name", ascending: false, comparison: .caseInsensitive)],
                "name COLLATE NOCASE DESC"
            ),
            ("price, then name", [SortDescriptor(key: "price"), SortDescriptor(key: "name")], "price, name"),
            ("name localized", [SortDescriptor(key: "name", comparison: .localized)], "name COLLATE NOCASE"),
        ]
        let context = container.newContext()
        for (label, descriptors, orderBy) in variants where !(ascii && label == "name") {
            var request = Item.fetchRequest()
            request.sortDescriptors = descriptors
            let selectIDs = database.prepare("SELECT id FROM item ORDER BY \(orderBy)")
            try compare(
                "sort all \(inputs.count) by \(label) (\(kind)): fetchObjectIDs vs SELECT id ORDER BY \(orderBy)",
                iterations: 1,
                objectGraph: {
                    try timed {
                        let ids = try context.fetchObjectIDs(request)
                        precondition(ids.count == inputs.count)
                    }
                },
                grdb: nil,
                raw: {
                    timed {
                        var ids: [Int64] = []
                        while selectIDs.step() { ids.append(selectIDs.int64(0)) }
                        selectIDs.reset()
                        precondition(ids.count == inputs.count)
                    }
                })
        }
    }
}
