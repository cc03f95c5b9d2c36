import CLibPQ
import Foundation
import ObjectGraph

/// Where and how to reach a PostgreSQL server: a connection URL or its components, plus the
/// limits a connection applies.
///
/// The URL is libpq's: `postgresql://user:password@host:port/database?parameter=value`, where an
/// empty host and `?host=/directory` name a Unix socket directory. Any libpq connection parameter
/// (`sslmode`, `target_session_attrs`, …) can be set by its keyword; parameters left out take
/// libpq's defaults, including the `PGHOST`, `PGUSER`, … environment variables.
///
/// For example:
/// ```swift
/// let local = try PostgresConfiguration(url: "postgresql://app@/appdb?host=/var/run/postgresql")
/// var remote = PostgresConfiguration(host: "db.internal", user: "app", database: "appdb")
/// remote["sslmode"] = "verify-full"
/// remote.statementTimeout = .seconds(5)
/// ```
///
/// Core Data: none (Core Data has no server store); the nearest is the store URL of an
/// `NSPersistentStoreDescription`.
public struct PostgresConfiguration: Sendable, Hashable, CustomStringConvertible {
    /// libpq's connection parameters by keyword (`host`, `port`, `user`, `password`, `dbname`, …).
    public private(set) var parameters: [String: String]
    /// The longest a connection attempt may take before it fails; 10 seconds by default
    /// (libpq counts whole seconds, at least 2).
    public var connectTimeout: Duration = .seconds(10)
    /// The longest one statement may run before the server cancels it with a
    /// `PersistenceError.Code.timedOut` error; `nil` (the default) keeps the server's setting.
    public var statementTimeout: Duration?
    /// The name the server shows for these connections (`pg_stat_activity.application_name`).
    public var applicationName = "ObjectGraph"

    /// A configuration from a libpq connection URL (`postgresql://` or `postgres://`).
    ///
    /// - Throws: `PersistenceError.Code.unsupportedFormat` if libpq cannot parse `url`.
    public init(url: String) throws {
        guard !url.utf8.contains(0) else { throw PersistenceError.invalidPostgresURL(url, reason: "it holds a NUL") }
        guard url.hasPrefix("postgresql://") || url.hasPrefix("postgres://") else {
            throw PersistenceError.invalidPostgresURL(url, reason: "it does not start with postgresql://")
        }
        var failure: UnsafeMutablePointer<CChar>?
        guard let options = PQconninfoParse(url, &failure) else {
            // libpq allocates the message (or leaves it nil when out of memory); it is freed here.
            let reason = failure.map { String(cString: $0) } ?? "libpq ran out of memory"
            failure.map { PQfreemem($0) }
            throw PersistenceError.invalidPostgresURL(url, reason: reason)
        }
        defer { PQconninfoFree(options) }
        var parameters: [String: String] = [:]
        // The array ends with an option whose keyword is NULL (libpq's documented terminator).
        var option = options
        while let keyword = option.pointee.keyword {
            if let value = option.pointee.val { parameters[String(cString: keyword)] = String(cString: value) }
            option += 1
        }
        self.parameters = parameters
    }

    /// A configuration from its components; `nil` ones take libpq's defaults.
    ///
    /// - Parameters:
    ///   - host: A host name or address, or the directory of the server's Unix socket (a path
    ///     starting with `/`).
    ///   - port: The TCP port, or the number in the socket's file name; 5432 by default.
    public init(
        host: String? = nil, port: Int? = nil, user: String? = nil, password: String? = nil, database: String? = nil
    ) {
        var parameters: [String: String] = [:]
        parameters["host"] = host
        parameters["port"] = port.map(String.init)
        parameters["user"] = user
        parameters["password"] = password
        parameters["dbname"] = database
        self.parameters = parameters
    }

    /// The libpq connection parameter named `keyword` (for example `sslmode`), or `nil` for
    /// libpq's default.
    public subscript(keyword: String) -> String? {
        get { parameters[keyword] }
        set { parameters[keyword] = newValue }
    }

    /// The database name, if one is set.
    public var database: String? { parameters["dbname"] }

    /// The server as messages name it: user, host or socket directory, port and database, never
    /// the password.
    public var description: String {
        let user = parameters["user"].map { "\($0)@" } ?? ""
        let host = parameters["host"] ?? parameters["hostaddr"] ?? ""
        let port = parameters["port"].map { ":\($0)" } ?? ""
        let database = parameters["dbname"].map { "/\($0)" } ?? ""
        return host.hasPrefix("/")
            ? "postgresql://\(user)\(port)\(database)?host=\(host)" : "postgresql://\(user)\(host)\(port)\(database)"
    }

    /// The keywords and values libpq's `PQconnectdbParams` takes: the parameters, the connect
    /// timeout, the application name, and UTF-8 as the client encoding (the connection decodes
    /// text as UTF-8, so it is not left to the caller).
    func connectionParameters() throws -> [(String, String)] {
        var all = parameters
        all["connect_timeout"] = String(max(2, connectTimeout.components.seconds))
        all["application_name"] = all["application_name"] ?? applicationName
        all["client_encoding"] = "UTF8"
        for (keyword, value) in all where keyword.utf8.contains(0) || value.utf8.contains(0) {
            throw PersistenceError.invalidPostgresParameter(keyword)
        }
        return all.sorted { $0.key < $1.key }
    }
}
