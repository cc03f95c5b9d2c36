import Foundation
import ObjectGraph

extension StoreDescription {
    /// A ``PostgresStore`` in the database `configuration` reaches, in the PostgreSQL schema
    /// `schema` (`nil`: the connection's current schema). ``StoreDescription/isReadOnly`` opens
    /// it read-only; ``StoreDescription/migration`` says what opening a store written with another
    /// model does (migrate it in one transaction under the store's advisory lock, by default).
    ///
    /// For example:
    /// ```swift
    /// let description = StoreDescription.postgres(PostgresConfiguration(host: "db.internal", database: "app"))
    /// let container = try PersistentContainer(model: model, storeDescription: description)
    /// ```
    ///
    /// Core Data: an `NSPersistentStoreDescription` of a store type registered by a framework.
    public static func postgres(_ configuration: PostgresConfiguration, schema: String? = nil) -> StoreDescription {
        let identity = configuration.parameters.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        return .custom(
            "PostgreSQL \(configuration.description)\(schema.map { " (schema \($0))" } ?? "")",
            identity: "postgresql \(identity) \(schema ?? "")"
        ) { description in
            PostgresStore(
                configuration: configuration, schema: schema, isReadOnly: description.isReadOnly,
                migration: description.migration)
        }
    }

    /// A ``PostgresStore`` in the database a libpq connection URL names
    /// (`postgresql://user:password@host:port/database`), in the PostgreSQL schema `schema`.
    ///
    /// - Throws: `PersistenceError.Code.unsupportedFormat` if libpq cannot parse `url`.
    public static func postgres(url: String, schema: String? = nil) throws -> StoreDescription {
        .postgres(try PostgresConfiguration(url: url), schema: schema)
    }

    /// A ``PostgresStore`` on a server given by its parts; `nil` ones take libpq's defaults
    /// (the `PGHOST`, `PGUSER`, … environment variables, then the local socket and 5432).
    public static func postgres(
        host: String? = nil, port: Int? = nil, database: String? = nil, user: String? = nil,
        password: String? = nil, schema: String? = nil
    ) -> StoreDescription {
        .postgres(
            PostgresConfiguration(host: host, port: port, user: user, password: password, database: database),
            schema: schema)
    }
}
