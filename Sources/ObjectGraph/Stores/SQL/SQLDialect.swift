/// How one SQL database spells what the SQL stores write: identifiers, parameters, column types,
/// upserts and `RETURNING`.
///
/// The schema mapping (``SQLStoreSchema``) and the store's statements are written once, through a
/// dialect, so that the same code writes SQLite's and PostgreSQL's SQL.
package struct SQLDialect: Sendable, Hashable {
    /// How a statement names its parameters.
    enum Placeholders: Sendable, Hashable {
        /// `?`, bound in order (SQLite; also `?NNN`).
        case questionMark
        /// `$1`, `$2`, … (PostgreSQL).
        case dollarNumber
    }

    /// The database's name, for messages.
    package var name: String
    /// How parameters are written.
    var placeholders: Placeholders
    /// Whether `INSERT … RETURNING` is available (SQLite 3.35 and later, PostgreSQL).
    var supportsReturning: Bool
    /// The column types for each storage need.
    var types: [SQLColumnType: String]
    /// The scalar function that returns the larger of two values (`max` in SQLite, `GREATEST`
    /// in PostgreSQL).
    var greatest: String
    /// A query with one parameter, a table name, that returns a row if the table exists.
    var tableExistsQuery: String
    /// A query that returns a row if the database holds any table at all.
    var anyTableQuery: String
    /// Whether scalar functions written in Swift can be installed on a connection (see
    /// ``SQLFunctionRegistering``), so that queries can call the query engine's own string tests.
    package var supportsCustomFunctions = false
    /// Whether a real column holds a `NaN` bit for bit (PostgreSQL's `double precision` does;
    /// SQLite stores `NULL`, so its columns keep a `NaN`'s bit pattern as a blob).
    var realHoldsNaN = false
    /// The column that orders the rows of the history's change table as they were written, and
    /// the declaration that adds it if the table must have one (SQLite's implicit `rowid` needs
    /// none; PostgreSQL has no such column, so an identity column is declared).
    var insertionOrderColumn = "rowid"
    var insertionOrderDeclaration: String?
    /// Whether text may hold a NUL character (PostgreSQL's cannot: string attributes are stored
    /// escaped, see `SQLColumnCoding.escapingNUL`, and metadata with a NUL is refused).
    var textHoldsNUL = true
    /// The longest identifier in bytes, if the database shortens longer ones (PostgreSQL: 63).
    var maximumIdentifierLength: Int?
    /// Whether an index entry has a size limit (PostgreSQL's B-tree entries hold about 2,700
    /// bytes), so that text and blob columns are indexed by a bounded expression.
    var boundsIndexKeys = false

    /// SQLite 3.35 or later. Columns that keep IEEE doubles bit-exactly have no declared type
    /// (SQLite's "BLOB" affinity): a `REAL` column stores `-0.0` as the integer 0.
    static let sqlite = SQLDialect(
        name: "SQLite", placeholders: .questionMark, supportsReturning: true,
        types: [.integer: "INTEGER", .exactReal: "", .text: "TEXT", .blob: "BLOB", .key: "INTEGER"],
        greatest: "max", tableExistsQuery: "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?1",
        anyTableQuery: "SELECT 1 FROM sqlite_master WHERE type = 'table' LIMIT 1", supportsCustomFunctions: true)

    /// PostgreSQL 12 or later: `double precision` holds every double, `NaN` included, bit for
    /// bit (the connection sends and reads them in the binary format).
    package static let postgreSQL = SQLDialect(
        name: "PostgreSQL", placeholders: .dollarNumber, supportsReturning: true,
        types: [.integer: "BIGINT", .exactReal: "DOUBLE PRECISION", .text: "TEXT", .blob: "BYTEA", .key: "BIGINT"],
        greatest: "GREATEST",
        tableExistsQuery: "SELECT 1 FROM information_schema.tables WHERE table_schema = current_schema() "
            + "AND table_name = $1",
        anyTableQuery: "SELECT 1 FROM information_schema.tables WHERE table_schema = current_schema() LIMIT 1",
        realHoldsNaN: true, insertionOrderColumn: "seq",
        insertionOrderDeclaration: "seq BIGINT GENERATED ALWAYS AS IDENTITY", textHoldsNUL: false,
        maximumIdentifierLength: 63, boundsIndexKeys: true)

    /// `identifier` quoted, with embedded quotes doubled: any entity or property name is safe.
    package func quote(_ identifier: String) -> String {
        // Character by Character, not with Foundation's search (which may trap on a NUL).
        "\"" + String(identifier.flatMap { $0 == "\"" ? ["\"", "\""] : [$0] }) + "\""
    }

    /// The parameter at `index` (1-based).
    func placeholder(_ index: Int) -> String {
        switch placeholders {
        case .questionMark: "?\(index)"
        case .dollarNumber: "$\(index)"
        }
    }

    /// `count` parameters from `start`, separated by commas.
    func placeholders(_ count: Int, from start: Int = 1) -> String {
        (start..<(start + count)).map(placeholder).joined(separator: ", ")
    }

    /// What an index on the column `quoted` (of `type`) is built on: the column itself, or where
    /// index entries are bounded (``boundsIndexKeys``), for text and blobs, their first 512
    /// characters or 1024 bytes (a plain index) or their MD5 digest (a unique index, so that two
    /// values differing only after the prefix stay distinct).
    func indexKey(_ quoted: String, _ type: SQLColumnType, unique: Bool) -> String {
        guard boundsIndexKeys else { return quoted }
        switch (type, unique) {
        case (.text, false): return "(left(\(quoted), 512))"
        case (.blob, false): return "(substr(\(quoted), 1, 1024))"
        case (.text, true), (.blob, true): return "(md5(\(quoted)))"
        default: return quoted
        }
    }

    /// The declared type of a column of `type`.
    func typeName(_ type: SQLColumnType) -> String { types[type] ?? "" }

    /// An `INSERT` of `columns` into `table` that replaces the row whose `conflict` columns
    /// match (both SQLite and PostgreSQL spell it `ON CONFLICT … DO UPDATE`).
    func upsert(into table: String, columns: [String], conflict: [String]) -> String {
        let updates = columns.filter { !conflict.contains($0) }.map { "\(quote($0)) = excluded.\(quote($0))" }
        let action = updates.isEmpty ? "DO NOTHING" : "DO UPDATE SET " + updates.joined(separator: ", ")
        return "INSERT INTO \(quote(table)) (\(columns.map(quote).joined(separator: ", "))) "
            + "VALUES (\(placeholders(columns.count))) ON CONFLICT (\(conflict.map(quote).joined(separator: ", "))) "
            + action
    }
}

/// What a column stores, for ``SQLDialect/typeName(_:)``.
enum SQLColumnType: Sendable, Hashable {
    /// A 64-bit integer.
    case integer
    /// An IEEE double, bit for bit (including `-0.0` and infinities; a `NaN` is stored as its
    /// 8-byte bit pattern).
    case exactReal
    /// UTF-8 text.
    case text
    /// Bytes.
    case blob
    /// An object's key: the primary key of an entity's table, or a reference to one.
    case key
}
