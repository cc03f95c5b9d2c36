import Foundation
import GRDB
import ObjectGraph

/// The entity of the string-operator workloads: one string attribute.
final class Named: ManagedObject {
    @Attribute var name = ""
}

/// Names of `count` rows, ASCII or not. 1% hold "xyz" (half of them upper-case, "XYZ"), so
/// that `CONTAINS 'xyz'` selects about 0.5% and `CONTAINS[c]` about 1%; the non-ASCII set
/// writes "xýz" / "XÝZ" and "ítem", so that `[d]` and `[cd]` fold something.
func stringOperatorNames(count: Int, ascii: Bool) -> [String] {
    let letters = Array("abcdefghijklmnopqrstuvwxyz")
    return (0..<count).map { index in
        let letter = ascii ? "\(letters[index % 26])" : "\(letters[index % 26])é"
        let word: String
        if index % 100 == 7 {
            word = index % 200 == 7 ? (ascii ? "XYZ" : "XÝZ") : (ascii ? "xyz" : "xýz")
        } else {
            word = ascii ? "item" : "ítem"
        }
        return "\(letter) \(word) \(index)"
    }
}

/// One operator of the predicate language with two constants (queries alternate between them,
/// so nothing built for one constant helps the next query) and SQLite's nearest equivalent.
struct StringOperatorCase {
    var predicateOperator: String
    var constants: [String]
    /// The SQL condition on `name` with `?` for the constant, case-sensitive and case-insensitive.
    var sql: String
    var sqlCaseInsensitive: String
    /// The bound SQL parameter for a constant, case-sensitive and case-insensitive.
    var parameter: (String) -> String
    var parameterCaseInsensitive: (String) -> String
}

func stringOperatorCases(ascii: Bool) -> [StringOperatorCase] {
    let e = ascii ? "" : "é"
    let item = ascii ? "item" : "ítem"
    let xyz = ascii ? "xyz" : "xýz"
    return [
        StringOperatorCase(
            predicateOperator: "CONTAINS", constants: [xyz, "m 99"], sql: "instr(name, ?) > 0",
            sqlCaseInsensitive: "name LIKE ?", parameter: { $0 }, parameterCaseInsensitive: { "%\($0)%" }),
        StringOperatorCase(
            predicateOperator: "BEGINSWITH", constants: ["d\(e) \(xyz)", "b\(e) \(item) 1"], sql: "name GLOB ?",
            sqlCaseInsensitive: "name LIKE ?", parameter: { "\($0)*" }, parameterCaseInsensitive: { "\($0)%" }),
        StringOperatorCase(
            predicateOperator: "ENDSWITH", constants: ["99", "\(xyz) 107"], sql: "name GLOB ?",
            sqlCaseInsensitive: "name LIKE ?", parameter: { "*\($0)" }, parameterCaseInsensitive: { "%\($0)" }),
        StringOperatorCase(
            predicateOperator: "LIKE", constants: ["*\(xyz)*7", "?\(e) \(item) 1?"], sql: "name GLOB ?",
            sqlCaseInsensitive: "name LIKE ?", parameter: { $0 },
            parameterCaseInsensitive: {
                $0.replacingOccurrences(of: "*", with: "%").replacingOccurrences(of: "?", with: "_")
            }),
        StringOperatorCase(
            predicateOperator: "MATCHES", constants: ["[a-z]\(e) \(xyz) .*", ".* \(item) 12[0-9]*"],
            sql: "name GLOB ?", sqlCaseInsensitive: "name LIKE ?",
            parameter: { $0 == "[a-z]\(e) \(xyz) .*" ? "[a-z]\(e) \(xyz) *" : "* \(item) 12*" },
            parameterCaseInsensitive: { $0 == "[a-z]\(e) \(xyz) .*" ? "_\(e) \(xyz) %" : "% \(item) 12%" }),
        StringOperatorCase(
            predicateOperator: "==", constants: ["j\(e) \(xyz) 607", "g\(e) \(item) 500"], sql: "name = ?",
            sqlCaseInsensitive: "name = ? COLLATE NOCASE", parameter: { $0 }, parameterCaseInsensitive: { $0 }),
    ]
}

/// Every string operator, with and without `[c]`, `[d]`, `[cd]`, on ASCII and non-ASCII
/// names: `count(for:)` with the predicate vs `SELECT count(*) … WHERE` SQLite's nearest
/// equivalent through a prepared statement (LIKE for the case-insensitive forms; SQLite has
/// no diacritic folding and folds only ASCII case, so the counts differ there).
func runStringOperatorWorkloads(count: Int) throws {
    // Their untimed setup (filling and counting) runs only when `--only` may select them.
    if let only, !only.hasPrefix("strings") { return }
    let model = try ManagedObjectModel(Named.self)
    for ascii in [true, false] {
        let names = stringOperatorNames(count: count, ascii: ascii)
        let container = try PersistentContainer(model: model, storeDescription: .inMemory)
        let filler = container.newContext()
        for name in names { Named(context: filler).name = name }
        try filler.save()
        let context = container.newContext()
        let database = RawDatabase()
        database.execute("CREATE TABLE named (id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
        database.transaction {
            let insert = database.prepare("INSERT INTO named (name) VALUES (?)")
            for name in names {
                insert.bind(1, name)
                insert.step()
                insert.reset()
            }
        }
        for operatorCase in stringOperatorCases(ascii: ascii) {
            for options in ["", "[c]", "[d]", "[cd]"] {
                let caseInsensitive = !options.isEmpty
                let requests = try operatorCase.constants.map { constant in
                    var request = Named.fetchRequest()
                    request.predicate = try FetchPredicate(
                        format: "name \(operatorCase.predicateOperator)\(options) %@", constant)
                    return request
                }
                let statement = database.prepare(
                    "SELECT count(*) FROM named WHERE \(caseInsensitive ? operatorCase.sqlCaseInsensitive : operatorCase.sql)"
                )
                let parameters = operatorCase.constants.map {
                    caseInsensitive ? operatorCase.parameterCaseInsensitive($0) : operatorCase.parameter($0)
                }
                // The same rows on both sides where SQLite's form means the same.
                let sameMeaning = options.isEmpty || (options == "[c]" && ascii)
                var ourCounts = [0, 0]
                var theirCounts = [0, 0]
                for which in 0..<2 {
                    ourCounts[which] = try context.count(for: requests[which])
                    statement.bind(1, parameters[which])
                    theirCounts[which] = Int(statement.scalar())
                    statement.reset()
                    if sameMeaning {
                        precondition(
                            ourCounts[which] == theirCounts[which],
                            "\(operatorCase.predicateOperator)\(options) \(operatorCase.constants[which]): \(ourCounts) vs \(theirCounts)"
                        )
                    }
                }
                var ourTurn = 0
                var theirTurn = 0
                try compare(
                    "strings (\(ascii ? "ASCII" : "non-ASCII")): count name \(operatorCase.predicateOperator)\(options) (\(ourCounts[0])/\(ourCounts[1]) of \(count)) vs \(caseInsensitive ? operatorCase.sqlCaseInsensitive : operatorCase.sql) (\(theirCounts[0])/\(theirCounts[1]))",
                    iterations: 2,
                    objectGraph: {
                        ourTurn += 1
                        let request = requests[ourTurn % 2]
                        let expected = ourCounts[ourTurn % 2]
                        return try timed {
                            let found = try context.count(for: request)
                            precondition(found == expected)
                        }
                    },
                    grdb: nil,
                    raw: {
                        theirTurn += 1
                        let parameter = parameters[theirTurn % 2]
                        return timed {
                            statement.bind(1, parameter)
                            precondition(statement.scalar() == theirCounts[theirTurn % 2])
                            statement.reset()
                        }
                    })
            }
        }
    }
}
