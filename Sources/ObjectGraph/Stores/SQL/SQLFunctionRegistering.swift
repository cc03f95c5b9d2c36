/// A ``SQLDatabase`` on which scalar functions written in Swift can be installed, so that its
/// queries can call them (SQLite's application-defined functions).
///
/// The query translator installs the query engine's own string and value tests this way, so that
/// SQL that calls them selects exactly the rows the engine matches.
package protocol SQLFunctionRegistering: SQLDatabase {
    /// Installs (or replaces) the scalar function `name` taking `argumentCount` arguments.
    ///
    /// `body` gets the arguments as ``SQLValue``s and returns the result. A `deterministic`
    /// function returns the same result for the same arguments, which lets the database use it in
    /// indexes and evaluate it once per distinct argument list.
    ///
    /// - Throws: `.storeClosed` on a closed connection; the database's error if it refuses the
    ///   function (a name or argument count it does not accept).
    func createFunction(
        name: String, argumentCount: Int, deterministic: Bool, _ body: @escaping ([SQLValue]) -> SQLValue
    ) throws

    /// Installs (or replaces) the collation `name`: `order` returns a negative number, zero or a
    /// positive number as its first string sorts before, with or after its second.
    ///
    /// - Throws: `.storeClosed` on a closed connection; the database's error if it refuses it.
    func createCollation(name: String, _ order: @escaping (String, String) -> Int) throws
}
