import Foundation
import ObjectGraph
import Testing

@testable import ObjectGraphPostgres

@Suite(.postgres) struct PostgresDestroyTests {
    static let model = try! ManagedObjectModel(Ledger.self)

    private func schemaExists(_ name: String) throws -> Bool {
        let connection = try PostgresTestServer.connect()
        defer { connection.close() }
        return try !connection.rows("SELECT 1 FROM pg_namespace WHERE nspname = $1", [.text(name)]).isEmpty
    }

    @Test func destroyDropsTheStoresSchemaAndItsBackup() throws {
        let schema = PostgresTestSchemas.make()
        let configuration = try PostgresTestServer.configuration()
        do {
            let container = try PersistentContainer(
                model: Self.model, store: PostgresStore(configuration: configuration, schema: schema))
            let context = container.newContext()
            Ledger(context: context).name = "cash"
            try context.save()
        }
        var entities = Self.model.entities
        entities[0].attributes.append(AttributeDescription(name: "note", type: .string, isOptional: true))
        _ = try PersistentContainer(
            model: try ManagedObjectModel(entities: entities),
            store: PostgresStore(
                configuration: configuration, schema: schema, migration: MigrationOptions(keepsBackup: true)))
        #expect(try schemaExists(PostgresStore.backupSchema(for: schema)))
        try PostgresStore.destroy(configuration: configuration, schema: schema)
        #expect(try !schemaExists(schema))
        #expect(try !schemaExists(PostgresStore.backupSchema(for: schema)))
        try PostgresStore.destroy(configuration: configuration, schema: schema)  // nothing left: no error
    }

    @Test func destroyRefusesASchemaThatHoldsNoStore() throws {
        let schema = PostgresTestSchemas.make()
        let configuration = try PostgresTestServer.configuration()
        let connection = try PostgresTestServer.connect()
        defer { connection.close() }
        try connection.execute("CREATE SCHEMA \(connection.dialect.quote(schema))")
        try connection.execute("CREATE TABLE \(connection.dialect.quote(schema)).accounts (id integer)")
        let error = #expect(throws: PersistenceError.self) {
            try PostgresStore.destroy(configuration: configuration, schema: schema)
        }
        #expect(error?.code == .unsupportedFormat)
        #expect(error?.message.contains(schema) == true)
        #expect(try schemaExists(schema))
        try connection.execute("DROP SCHEMA \(connection.dialect.quote(schema)) CASCADE")
    }
}
