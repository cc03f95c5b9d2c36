import Foundation
import Testing

@testable import ObjectGraph

/// The oracle of the SQL translation tests: the same objects saved in an in-memory store (the
/// query engine's answer) and in a SQLite file (where the translated SQL runs, on a connection of
/// its own with the engine's functions installed), or with `SharedSuiteStore.kind` `.postgres`
/// in a PostgreSQL schema (PostgreSQL's dialect, without the engine's functions). Objects get the
/// same keys in both.
final class SQLTranslationOracle {
    let memory: PersistentContainer
    let context: ManagedContext
    let connection: any SQLDatabase
    let schema: SQLStoreSchema
    let model: ManagedObjectModel
    /// Each entity's objects, in key order, by entity name.
    private(set) var objects: [String: [ObjectID]] = [:]
    /// Keys of objects with a string (or a string of an object they reach through to-ones) that
    /// holds a canonical singleton such as U+212A KELVIN SIGN: Swift's `<` is not a total order on
    /// those ("K9" < "\u{212A}", "\u{212A}" == "K", "K" < "K9"), so no sort has one right answer.
    private(set) var unorderedKeys: Set<Int64> = []

    /// Builds both stores with `populate`, run once per context (it must insert the same objects
    /// in the same order each time).
    init(model: ManagedObjectModel, populate: (ManagedContext) throws -> Void) throws {
        self.model = model
        let url = TemporaryDirectory.make().appendingPathComponent("oracle.sqlite")
        let postgresSchema = PostgresTestStore.uniqueSchema()
        let onPostgres = SharedSuiteStore.kind == .postgres
        do {
            let file = try PersistentContainer(
                model: model,
                storeDescription: onPostgres
                    ? PostgresTestStore.makeDescription(schema: postgresSchema) : .sqliteFile(url))
            let fileContext = file.newContext()
            try populate(fileContext)
            try fileContext.save()
        }
        memory = try PersistentContainer(model: model, storeDescription: .inMemory)
        context = memory.newContext()
        try populate(context)
        try context.save()
        if onPostgres {
            connection = try PostgresTestStore.connect(schema: postgresSchema)
        } else {
            let file = try SQLiteConnection(url: url, readOnly: true, create: false, busyTimeout: .seconds(5))
            try SQLFetchTranslation.installFunctions(on: file, model: model)
            connection = file
        }
        schema = try SQLStoreSchema(model: model)
        for entity in model.entities {
            objects[entity.name] = try context.fetchObjectIDs(FetchRequest<ManagedObject>(entityName: entity.name))
            let stored = try connection.rows("SELECT _key FROM \(connection.dialect.quote(entity.name)) ORDER BY _key")
            #expect(
                stored.map { $0.first?.integer } == objects[entity.name]?.map(\.key), "keys differ in \(entity.name)")
            for id in objects[entity.name] ?? []
            where try Self.holdsSingleton(context.existingObject(with: id), depth: 3) {
                unorderedKeys.insert(id.key)
            }
        }
    }

    deinit { connection.close() }

    /// Whether a string attribute of `object` (or of its to-one destinations) holds a scalar whose
    /// canonical form is another single scalar.
    private static func holdsSingleton(_ object: ManagedObject, depth: Int) throws -> Bool {
        for attribute in object.entity.attributes where attribute.type == .string {
            guard let text = try object.value(forKey: attribute.name) as? String else { continue }
            for scalar in text.unicodeScalars {
                let canonical = String(scalar).precomposedStringWithCanonicalMapping.unicodeScalars
                if canonical.count == 1, canonical.first != scalar { return true }
            }
        }
        guard depth > 0 else { return false }
        for relationship in object.entity.relationships where !relationship.isToMany {
            if let related = try object.value(forKey: relationship.name) as? ManagedObject,
                try holdsSingleton(related, depth: depth - 1)
            {
                return true
            }
        }
        return false
    }

    /// What one comparison of engine and SQL found.
    enum Outcome: Equatable {
        /// The engine rejected the predicate (nothing to compare).
        case rejected
        case exact
        case superset
        case failed(String)
    }

    /// Runs `predicate` (and `sort`) through the engine and the translated SQL and compares.
    func check(_ predicate: FetchPredicate, entity: String, sort: [FetchSortDescriptor] = []) -> Outcome {
        let request = FetchRequest<ManagedObject>(entityName: entity, predicate: predicate, sortDescriptors: sort)
        guard let expected = try? context.fetchObjectIDs(request).map(\.key) else { return .rejected }
        let info = model.info(named: entity)!
        let translation = SQLFetchTranslation(
            predicate: predicate.expression, sort: sort, entity: info, schema: schema, dialect: connection.dialect)
        let keys: [Int64]
        let counted: Int64?
        do {
            keys = try connection.rows(translation.selectKeys(limit: nil, offset: 0), translation.bindings)
                .map { $0[0].integer ?? -1 }
            counted = try connection.rows(translation.count(), translation.bindings).first?.first?.integer
        } catch {
            return .failed("\(predicate.expression) — SQL failed: \(error)\n\(translation.condition ?? "-")")
        }
        let describe = "\(predicate.expression) [sort \(sort.map(\.description))] on \(entity)"
        guard counted == Int64(keys.count) else {
            return .failed("\(describe): COUNT(*) \(counted ?? -1) ≠ \(keys.count)")
        }
        if translation.isExact {
            guard Set(keys) == Set(expected) else {
                return .failed(
                    "\(describe): exact SQL selected \(keys.sorted()), the engine \(expected.sorted())\n"
                        + "WHERE \(translation.condition ?? "-")")
            }
            if translation.order != nil, !sort.isEmpty || predicate.expression == .constant(true) {
                let differing = zip(keys, expected).filter { $0 != $1 }.flatMap { [$0, $1] }
                guard keys == expected || differing.contains(where: unorderedKeys.contains) else {
                    return .failed(
                        "\(describe): SQL ordered \(keys), the engine \(expected)\nORDER BY \(translation.order!)")
                }
            }
            return .exact
        }
        guard Set(keys).isSuperset(of: expected) else {
            return .failed(
                "\(describe): inexact SQL missed \(Set(expected).subtracting(keys).sorted())\n"
                    + "WHERE \(translation.condition ?? "-")")
        }
        return .superset
    }
}
