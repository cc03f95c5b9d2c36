import Foundation
import GRDBSQLite
import ObjectGraph

/// The entity of the string-variant workloads: a short name, a long description (100–500
/// characters) and a note that is nil in half the rows.
final class Described: ManagedObject {
    @Attribute var name = ""
    @Attribute var details = ""
    @Attribute var note: String? = nil
}

/// The rows of the variants: `stringOperatorNames`' names; details of 100–500 characters in
/// which "lorem ipsum dolor sit amet" is in every row and "even" in every second one; a note
/// in every second row.
func stringVariantRows(count: Int, ascii: Bool) -> [(name: String, details: String, note: String?)] {
    let names = stringOperatorNames(count: count, ascii: ascii)
    let words =
        ascii
        ? ["consectetur", "adipiscing", "elit", "sed", "do", "eiusmod", "tempor", "incididunt", "labore"]
        : ["consectétur", "adipiscing", "élit", "sed", "dó", "eiusmod", "tempor", "incidídunt", "labore"]
    return names.enumerated().map { index, name in
        var details = ascii ? "lorem ipsum dolor sit amet" : "lorem ípsum dolor sit amet"
        if index % 2 == 0 { details += " even" }
        let length = 100 + (index &* 37) % 400
        var word = index
        while details.count < length {
            details += " " + words[word % words.count]
            word = word / 3 + 7
        }
        details += " \(index)"
        let note: String? = index % 2 == 0 ? (ascii ? "note \(index % 10)" : "nóte \(index % 10)") : nil
        return (name, details, note)
    }
}

/// One variant: two predicates (queries alternate between them) and SQLite's nearest
/// equivalent with the parameters of each.
struct StringVariantCase {
    var label: String
    var predicates: [String]
    var sql: String
    var parameters: [[String]]
    /// Whether it fetches the matches (objects vs reading every column) instead of counting them.
    var fetches = false
}

func stringVariantCases(ascii: Bool) -> [StringVariantCase] {
    let e = ascii ? "" : "é"
    let upperE = ascii ? "" : "É"
    let i = ascii ? "i" : "í"
    let xyz = ascii ? "xyz" : "xýz"
    let note = ascii ? "note" : "nóte"
    return [
        StringVariantCase(
            label: "name CONTAINS 1 char", predicates: ["name CONTAINS 'a'", "name CONTAINS '7'"],
            sql: "instr(name, ?) > 0", parameters: [["a"], ["7"]]),
        StringVariantCase(
            label: "name CONTAINS 2 chars", predicates: ["name CONTAINS 'm 1'", "name CONTAINS '12'"],
            sql: "instr(name, ?) > 0", parameters: [["m 1"], ["12"]]),
        StringVariantCase(
            label: "name CONTAINS[c] 1 char",
            predicates: ["name CONTAINS[c] '\(ascii ? "A" : upperE)'", "name CONTAINS[c] 'q'"],
            sql: "name LIKE ?", parameters: [["%\(ascii ? "A" : upperE)%"], ["%q%"]]),
        StringVariantCase(
            label: "name CONTAINS[cd] 1 char", predicates: ["name CONTAINS[cd] 'E'", "name CONTAINS[cd] 'Y'"],
            sql: "name LIKE ?", parameters: [["%E%"], ["%Y%"]]),
        StringVariantCase(
            label: "details CONTAINS 26 chars (100%/0%)",
            predicates: [
                "details CONTAINS 'lorem \(i)psum dolor sit amet'", "details CONTAINS 'dolor sit amet never here'",
            ],
            sql: "instr(details, ?) > 0",
            parameters: [["lorem \(i)psum dolor sit amet"], ["dolor sit amet never here"]]),
        StringVariantCase(
            label: "details CONTAINS (50%/0%)", predicates: ["details CONTAINS 'even'", "details CONTAINS 'odd'"],
            sql: "instr(details, ?) > 0", parameters: [["even"], ["odd"]]),
        StringVariantCase(
            label: "details CONTAINS[c] (100%/50%)",
            predicates: ["details CONTAINS[c] 'LOREM'", "details CONTAINS[c] 'EVEN'"],
            sql: "details LIKE ?", parameters: [["%LOREM%"], ["%EVEN%"]]),
        StringVariantCase(
            label: "details CONTAINS[cd] long",
            predicates: ["details CONTAINS[cd] 'CONSECTETUR ADIPISCING'", "details CONTAINS[cd] 'EIUSMOD TEMPOR'"],
            sql: "details LIKE ?", parameters: [["%CONSECTETUR ADIPISCING%"], ["%EIUSMOD TEMPOR%"]]),
        StringVariantCase(
            label: "details ENDSWITH", predicates: ["details ENDSWITH ' 99'", "details ENDSWITH 'labore 1'"],
            sql: "details GLOB ?", parameters: [["* 99"], ["*labore 1"]]),
        StringVariantCase(
            label: "details BEGINSWITH[c] long",
            predicates: [
                "details BEGINSWITH[c] 'LOREM \(ascii ? "I" : "Í")PSUM DOLOR SIT AMET EVEN'",
                "details BEGINSWITH[c] 'LOREM'",
            ],
            sql: "details LIKE ?", parameters: [["LOREM \(ascii ? "I" : "Í")PSUM DOLOR SIT AMET EVEN%"], ["LOREM%"]]),
        StringVariantCase(
            label: "name !=", predicates: ["name != 'a\(e) \(i)tem 0'", "name != 'nothing'"],
            sql: "name <> ?", parameters: [["a\(e) \(i)tem 0"], ["nothing"]]),
        StringVariantCase(
            label: "name IN {5}",
            predicates: [
                "name IN {'a\(e) \(i)tem 0', 'b\(e) \(i)tem 1', 'c\(e) \(i)tem 2', 'x', 'y'}",
                "name IN {'h\(e) \(xyz) 7', 'z\(e) \(i)tem 25', 'q', 'r', 's'}",
            ],
            sql: "name IN (?, ?, ?, ?, ?)",
            parameters: [
                ["a\(e) \(i)tem 0", "b\(e) \(i)tem 1", "c\(e) \(i)tem 2", "x", "y"],
                ["h\(e) \(xyz) 7", "z\(e) \(i)tem 25", "q", "r", "s"],
            ]),
        StringVariantCase(
            label: "name <", predicates: ["name < 'c'", "name < 'm'"], sql: "name < ?", parameters: [["c"], ["m"]]),
        StringVariantCase(
            label: "name BETWEEN", predicates: ["name BETWEEN {'c', 'f'}", "name BETWEEN {'p', 'r'}"],
            sql: "name BETWEEN ? AND ?", parameters: [["c", "f"], ["p", "r"]]),
        StringVariantCase(
            label: "name LIKE leading * and ?", predicates: ["name LIKE '*99'", "name LIKE '?\(e) \(i)tem 1?'"],
            sql: "name GLOB ?", parameters: [["*99"], ["?\(e) \(i)tem 1?"]]),
        StringVariantCase(
            label: "name LIKE[c] leading *", predicates: ["name LIKE[c] '*XYZ*'", "name LIKE[c] '*M 12?'"],
            sql: "name LIKE ?", parameters: [["%XYZ%"], ["%M 12_"]]),
        StringVariantCase(
            label: "name MATCHES no literal",
            predicates: ["name MATCHES '.+ [a-z]+ [0-9]+'", "name MATCHES '[a-z].* [0-9]+'"],
            sql: "name GLOB ?", parameters: [["* [a-z]* [0-9]*"], ["[a-z]* [0-9]*"]]),
        StringVariantCase(
            label: "NOT name CONTAINS", predicates: ["NOT (name CONTAINS '\(xyz)')", "NOT (name CONTAINS '99')"],
            sql: "NOT instr(name, ?) > 0", parameters: [[xyz], ["99"]]),
        StringVariantCase(
            label: "CONTAINS AND CONTAINS",
            predicates: [
                "name CONTAINS '\(xyz)' AND details CONTAINS 'even'", "name CONTAINS '1' AND details CONTAINS 'tempor'",
            ],
            sql: "instr(name, ?) > 0 AND instr(details, ?) > 0", parameters: [[xyz, "even"], ["1", "tempor"]]),
        StringVariantCase(
            label: "CONTAINS[c] OR BEGINSWITH",
            predicates: [
                "name CONTAINS[c] '\(xyz)' OR name BEGINSWITH 'q'", "name CONTAINS[c] '99' OR name BEGINSWITH 'b'",
            ],
            sql: "name LIKE ? OR name GLOB ?", parameters: [["%\(xyz)%", "q*"], ["%99%", "b*"]]),
        StringVariantCase(
            label: "note (nil in half) CONTAINS", predicates: ["note CONTAINS '\(note) 2'", "note CONTAINS '4'"],
            sql: "instr(note, ?) > 0", parameters: [["\(note) 2"], ["4"]]),
        StringVariantCase(
            label: "note (nil in half) ==[c]",
            predicates: ["note ==[c] '\(note.uppercased()) 2'", "note ==[c] 'NOTHING'"],
            sql: "note = ? COLLATE NOCASE", parameters: [["\(note.uppercased()) 2"], ["NOTHING"]]),
        StringVariantCase(
            label: "note (nil in half) !=", predicates: ["note != '\(note) 2'", "note != 'nothing'"],
            sql: "note IS NOT ?", parameters: [["\(note) 2"], ["nothing"]]),
        StringVariantCase(
            label: "fetch name CONTAINS (1%)", predicates: ["name CONTAINS '\(xyz)'", "name CONTAINS 'm 99'"],
            sql: "instr(name, ?) > 0", parameters: [[xyz], ["m 99"]], fetches: true),
        StringVariantCase(
            label: "fetch details CONTAINS[c] (50%)",
            predicates: ["details CONTAINS[c] 'EVEN'", "details CONTAINS[c] 'EVEN '"],
            sql: "details LIKE ?", parameters: [["%EVEN%"], ["%EVEN %"]], fetches: true),
    ]
}

/// String operators beyond `runStringOperatorWorkloads`' rows (issue 24's "of these kinds, not
/// these exact ones"): short and long constants, constants in all rows or none, long values,
/// `!=`, `IN`, `<`, BETWEEN, LIKE with `?` and a leading `*`, MATCHES with no required literal,
/// NOT, AND/OR, fetches, an optional attribute nil in half the rows. Each against raw SQLite's
/// nearest equivalent in the same run; "≠" in a row marks counts that differ (SQLite's LIKE
/// folds ASCII case only, GLOB is not a regular expression).
func runStringVariantWorkloads(count: Int) throws {
    if let only, !"strings2".hasPrefix(only), !only.hasPrefix("strings2") { return }
    let model = try ManagedObjectModel(Described.self)
    for ascii in [true, false] {
        let rows = stringVariantRows(count: count, ascii: ascii)
        let container = try PersistentContainer(model: model, storeDescription: .inMemory)
        let filler = container.newContext()
        for row in rows {
            let object = Described(context: filler)
            object.name = row.name
            object.details = row.details
            object.note = row.note
        }
        try filler.save()
        let context = container.newContext()
        let database = RawDatabase()
        database.execute(
            "CREATE TABLE described (id INTEGER PRIMARY KEY, name TEXT NOT NULL, details TEXT NOT NULL, note TEXT)")
        database.transaction {
            let insert = database.prepare("INSERT INTO described (name, details, note) VALUES (?, ?, ?)")
            for row in rows {
                insert.bind(1, row.name)
                insert.bind(2, row.details)
                if let note = row.note { insert.bind(3, note) }
                insert.step()
                insert.reset()
            }
        }
        for variant in stringVariantCases(ascii: ascii) {
            let requests = try variant.predicates.map { format in
                var request = Described.fetchRequest()
                request.predicate = try FetchPredicate(format: format)
                return request
            }
            let statement = database.prepare(
                variant.fetches
                    ? "SELECT id, name, details, note FROM described WHERE \(variant.sql)"
                    : "SELECT count(*) FROM described WHERE \(variant.sql)")
            func ours(_ which: Int) throws -> Int {
                if variant.fetches {
                    let objects = try context.fetch(requests[which])
                    var characters = 0
                    for object in objects { characters &+= object.name.utf8.count }
                    precondition(characters > 0 || objects.isEmpty)
                    return objects.count
                }
                return try context.count(for: requests[which])
            }
            func theirs(_ which: Int) -> Int {
                for (index, parameter) in variant.parameters[which].enumerated() {
                    statement.bind(Int32(index + 1), parameter)
                }
                defer { statement.reset() }
                if variant.fetches {
                    var found: [(Int64, String, String, String?)] = []
                    while statement.step() {
                        found.append(
                            (
                                statement.int64(0), statement.text(1), statement.text(2),
                                sqlite3NullableText(statement, 3)
                            ))
                    }
                    return found.count
                }
                return Int(statement.scalar())
            }
            let ourCounts = try [ours(0), ours(1)]
            let theirCounts = [theirs(0), theirs(1)]
            var ourTurn = 0
            var theirTurn = 0
            try compare(
                "strings2 (\(ascii ? "ASCII" : "non-ASCII")): \(variant.fetches ? "" : "count ")\(variant.label) (\(ourCounts[0])/\(ourCounts[1])\(ourCounts == theirCounts ? "" : " ≠ \(theirCounts[0])/\(theirCounts[1])") of \(count))",
                iterations: 2,
                objectGraph: {
                    ourTurn += 1
                    let which = ourTurn % 2
                    return try timed {
                        let found = try ours(which)
                        precondition(found == ourCounts[which])
                    }
                },
                grdb: nil,
                raw: {
                    theirTurn += 1
                    let which = theirTurn % 2
                    return timed { precondition(theirs(which) == theirCounts[which]) }
                })
        }
    }
}

/// A text column that may be NULL.
func sqlite3NullableText(_ statement: RawStatement, _ column: Int32) -> String? {
    sqlite3_column_type(statement.handle, column) == SQLITE_NULL ? nil : statement.text(column)
}
