import Foundation
import ObjectGraph

/// An app's usual record: looked up by its UUID `id` (indexed), and by category and price
/// (a compound index).
final class IndexedRecord: ManagedObject {
    @Attribute(indexed: true) var id = UUID()
    @Attribute var category = ""
    @Attribute var price: Int64 = 0
    override class var indexes: [FetchIndexDescription] {
        [FetchIndexDescription([\IndexedRecord.category, \IndexedRecord.price])]
    }
}

/// The same record without indexes: a UUID lookup scans, as every one did before UUID
/// attributes could be indexed.
final class UnindexedRecord: ManagedObject {
    @Attribute var id = UUID()
    @Attribute var category = ""
    @Attribute var price: Int64 = 0
}

/// Lookups by UUID and by a compound key among `count` records in in-memory stores filled
/// outside the timing, each in one long-lived context that has fetched the object before.
/// Run with `--only lookup`.
func runLookupBenchmarks(count: Int) throws {
    var ids: [UUID] = []
    for index in 0..<count { ids.append(UUID(uuidString: String(format: "E621E1F8-C36C-495A-93FC-%012X", index * 7))!) }
    func fill(_ type: ManagedObject.Type) throws -> PersistentContainer {
        let container = try PersistentContainer(model: ManagedObjectModel(type), storeDescription: .inMemory)
        let context = container.newContext()
        let entity = container.model.entities[0]
        for index in 0..<count {
            let object = type.init(entity: entity, insertInto: context)
            try object.setValue(ids[index], forKey: "id")
            try object.setValue("category \(index % 100)", forKey: "category")
            try object.setValue(Int64(index / 100), forKey: "price")
        }
        try context.save()
        return container
    }
    func lookup(_ label: String, _ container: PersistentContainer, _ predicate: FetchPredicate, iterations: Int) throws
    {
        let name = "lookup: \(label), 1 of \(count) (existing context)"
        guard isSelected(name) else { return }
        let context = container.newContext()
        let request = FetchRequest<ManagedObject>(entityName: container.model.entities[0].name, predicate: predicate)
        let warm = try context.fetch(request).count
        precondition(warm == 1)
        try measure(name, iterations: iterations) {
            let found = try context.fetch(request).count
            precondition(found == 1)
        }
    }
    let indexed = try fill(IndexedRecord.self)
    let plain = try fill(UnindexedRecord.self)
    let byID = try FetchPredicate(format: "id == %@", ids[count / 2 + 17])
    try lookup("id == %@ (UUID, indexed)", indexed, byID, iterations: 10_000)
    try lookup("id == %@ (UUID, no index: a scan, as before)", plain, byID, iterations: 20)
    let target = count / 2 + 17
    let byKey = try FetchPredicate(
        format: "category == %@ AND price == %@", "category \(target % 100)", NSNumber(value: target / 100))
    try lookup("category == %@ AND price == %@ (compound index)", indexed, byKey, iterations: 10_000)
    try lookup("category == %@ AND price == %@ (no index)", plain, byKey, iterations: 20)
}
