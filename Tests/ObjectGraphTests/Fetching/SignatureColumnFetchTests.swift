import Foundation
import Testing

@testable import ObjectGraph

/// Fetches whose string conjuncts (`==`, `BEGINSWITH`, `ENDSWITH`, `CONTAINS`, `LIKE`, with and
/// without `[c]`, `[d]`, `[cd]`) test enough rows build a ``StringSignatureColumn`` and skip the
/// rows whose signature lacks the constant's characters: they must return exactly what testing
/// every row returns, on names chosen to trip a byte-level shortcut.
@Suite struct SignatureColumnFetchTests {
    static let names: [String?] =
        PrefixColumnStore.names + [
            // Precomposed and decomposed forms, and folds that change the length or the script.
            "Café au lait", "cafe\u{301} au lait", "CAFÉ", "straße", "STRASSE", "ﬁne", "İstanbul", "istanbul",
            "Ωmega", "\u{2126}mega", "x\u{301}yz", "xýz", "XÝZ", "xyz\u{301}", "a\u{301}\u{316}b", "a\u{316}\u{301}b",
            // Singletons canonically equivalent to ASCII: Kelvin sign, Greek question mark, varia.
            "\u{212A}xyz", "why\u{37E}", "\u{1FEF}quote", "K xyz", "why;", "`quote",
            // Grapheme edges: CR LF, a prepended mark, a zero-width joiner, an emoji sequence.
            "w1\r\nxyz", "\u{600}1 xyz", "a\u{200D}b", "👩\u{200D}💻 xyz", "🇫🇷 xyz", "xyz\r", "\r\nxyz",
            "日本語テキスト", "テキ", "ﾃｷ", nil, "",
        ]

    static let formats = [
        "name CONTAINS 'xyz'", "name CONTAINS[c] 'XYZ'", "name CONTAINS[d] 'xyz'", "name CONTAINS[cd] 'XYZ'",
        "name CONTAINS 'xýz'", "name CONTAINS[c] 'XÝZ'", "name CONTAINS[cd] 'xý'", "name CONTAINS 'K'",
        "name CONTAINS 'e\u{301}'", "name CONTAINS 'é'", "name CONTAINS[c] 'SS'", "name CONTAINS[c] 'ß'",
        "name CONTAINS ';'", "name CONTAINS '`'", "name CONTAINS '\r'", "name CONTAINS '\n'", "name CONTAINS 'fi'",
        "name CONTAINS[c] 'FI'", "name CONTAINS 'a\u{316}\u{301}'", "name CONTAINS '1 x'", "name CONTAINS 'テキ'",
        "name CONTAINS[cd] 'ω'", "name CONTAINS[c] 'i̇'", "name CONTAINS 'w1'", "name CONTAINS ''",
        "name ENDSWITH 'xyz'", "name ENDSWITH[cd] 'XYZ'", "name ENDSWITH 'lait'", "name ENDSWITH[d] 'e'",
        "name ENDSWITH '\n'", "name ENDSWITH 'mega'", "name BEGINSWITH 'café'", "name BEGINSWITH[cd] 'CAFE'",
        "name BEGINSWITH '\u{2126}'", "name BEGINSWITH[c] 'ω'", "name ==[cd] 'cafe au lait'", "name == 'xýz'",
        "name ==[c] 'STRASSE'", "name ==[cd] 'xyz'", "name LIKE '*xyz*'", "name LIKE[c] '*XÝZ'",
        "name LIKE[cd] 'cafe*'", "name LIKE '?xyz'", "name LIKE '*\\\\**'", "name LIKE[d] '*e*l*'",
        "name LIKE 'w?'", "name CONTAINS 'xyz' AND name CONTAINS[c] 'K'", "NOT name CONTAINS 'xyz'",
        "name CONTAINS 'xyz' OR name ENDSWITH 'quote'", "name CONTAINS %@",
        // Conjuncts a column settles (a kept folded value, or a negation whose signature is
        // lacking) beside conjuncts it does not, and tests whose folded values settle nothing.
        "NOT name CONTAINS[c] 'XÝZ'", "NOT name ==[cd] 'cafe au lait'", "NOT name BEGINSWITH[cd] 'CAFE'",
        "NOT name LIKE[cd] '*xyz*'", "NOT name CONTAINS 'é'", "NOT name ENDSWITH[d] 'e'",
        "name CONTAINS[c] 'XÝZ' AND name BEGINSWITH 'w'", "name BEGINSWITH 'w' AND NOT name CONTAINS[cd] 'xý'",
        "name CONTAINS[cd] 'e' AND price < 500 AND NOT name ENDSWITH[c] 'LAIT'",
        "name MATCHES[c] '.*XÝZ.*'", "NOT name MATCHES[c] '.*XÝZ.*'", "name MATCHES[cd] '.*CAFE.*'",
        "NOT name MATCHES[d] '.*cafe.*'", "NOT NOT name CONTAINS[c] 'XÝZ'",
        // Disjunctions: settled where every alternative fails or one holds.
        "name CONTAINS[c] 'XÝZ' OR name BEGINSWITH 'w1'", "name CONTAINS[cd] 'xy' OR NOT name ENDSWITH[c] 'LAIT'",
        "name MATCHES[c] '.*XÝZ.*' OR name CONTAINS 'é'",
        "(name CONTAINS[c] 'XÝZ' OR name BEGINSWITH 'w1') AND price < 500",
        "name CONTAINS[c] 'XÝZ' OR price < 10",
        "name ==[cd] 'cafe au lait' OR name ==[c] 'straße' OR name ENDSWITH 'mega'",
        "NOT (name CONTAINS[c] 'K' OR name CONTAINS[d] 'e')", "name LIKE[c] '*XÝZ' OR name LIKE[cd] 'cafe*'",
        // Past the 64 conjuncts a row's mask holds: the last ones are tested in full.
        (Array(repeating: "price >= 0", count: 64) + ["name CONTAINS[c] 'XÝZ'", "NOT name CONTAINS[cd] 'e'"])
            .joined(separator: " AND "),
    ]

    /// A store of 3,000 items, a quarter of them with one of ``names``.
    struct Store {
        let container: PersistentContainer
        let context: ManagedContext
        var random = IndexedPair.Generator(seed: 11)

        init(count: Int) throws {
            container = try PersistentContainer(
                model: PrefixColumnStore.model(priceIndexed: false), storeDescription: .inMemory)
            context = container.newContext()
            for _ in 0..<count { try insert() }
            try context.save()
        }

        mutating func name() -> String? {
            random.next(3) == 0
                ? SignatureColumnFetchTests.names[random.next(SignatureColumnFetchTests.names.count)]
                : "w\(random.next(400)) item"
        }

        mutating func insert() throws {
            let object = ManagedObject(entity: context.model.entity(named: "Item")!, insertInto: context)
            try object.setValue(name(), forKey: "name")
            try object.setValue(Int64(random.next(1_000)), forKey: "price")
        }

        var signatureColumnCount: Int {
            let table = container.committedSnapshot().tables[0]
            return (0..<4).count { folding in
                table.signatureColumns.column(
                    slot: 0, folding: folding, of: table, build: false, signer: StringSignature.signer(folding: []))
                    != nil
            }
        }

        /// The keys of the committed rows a predicate matches, each row tested in full.
        func committedKeys(_ predicate: FetchPredicate) throws -> [Int64] {
            let snapshot = container.committedSnapshot()
            let program = RowProgram(
                try CompiledPredicate(predicate, entity: snapshot.model.infos[0], model: snapshot.model))
            var keys: [Int64] = []
            snapshot.tables[0].forEach { key, row in
                if row.values.withUnsafeBufferPointer(program.matches) { keys.append(key) }
            }
            return keys
        }

        func fetchedKeys(_ predicate: FetchPredicate) throws -> [Int64] {
            try context.fetch(FetchRequest<ManagedObject>(entityName: "Item", predicate: predicate)).map(\.objectID.key)
        }

        func expectAgreement(sourceLocation: SourceLocation = #_sourceLocation) throws {
            let base = self
            for format in SignatureColumnFetchTests.formats {
                let predicate =
                    try format.contains("%@")
                    ? FetchPredicate(format: format, "e\u{301}") : FetchPredicate(format: format)
                let fetched = try base.fetchedKeys(predicate)
                #expect(fetched == (try base.committedKeys(predicate)), "\(format)", sourceLocation: sourceLocation)
                let request = FetchRequest<ManagedObject>(entityName: "Item", predicate: predicate)
                #expect(
                    try container.newContext().count(for: request) == fetched.count, "\(format)",
                    sourceLocation: sourceLocation)
            }
        }
    }

    @Test func fetchesAgreeWithTestingEveryRow() throws {
        var store = try Store(count: 3_000)
        #expect(store.signatureColumnCount == 0)
        try store.expectAgreement()
        // One column per folding ([], [c], [d], [cd]), shared by every constant.
        #expect(store.signatureColumnCount == 4)

        // Saved changes after the columns exist: renames, nil names, deletes, new chunks.
        let objects = try store.context.fetch(FetchRequest<ManagedObject>(entityName: "Item"))
        for object in objects where object.objectID.key % 5 == 0 { try object.setValue(store.name(), forKey: "name") }
        for object in objects where object.objectID.key % 13 == 0 { store.context.delete(object) }
        for _ in 0..<1_200 { try store.insert() }
        try store.context.save()
        #expect(store.signatureColumnCount == 4)
        try store.expectAgreement()
    }

    @Test func aSecondConstantReusesTheColumn() throws {
        let store = try Store(count: 3_000)
        let base = store
        _ = try base.fetchedKeys(FetchPredicate(format: "name CONTAINS[cd] 'xyz'"))
        let table = store.container.committedSnapshot().tables[0]
        let column = table.signatureColumns.column(
            slot: 0, folding: 3, of: table, build: false, signer: StringSignature.signer(folding: []))
        #expect(column != nil)
        _ = try base.fetchedKeys(FetchPredicate(format: "name ENDSWITH[cd] 'lait'"))
        #expect(store.signatureColumnCount == 1)
    }

    /// The signature's promise, directly: a value that matches a constant (as the matchers
    /// decide, ASCII shortcuts and Foundation's searches included) has every bit of the folded
    /// constant's signature.
    @Test func aValueThatMatchesHasEveryBitOfTheConstant() {
        let options: [ObjectGraph.PredicateExpression.Options] = [
            [], .caseInsensitive, .diacriticInsensitive, [.caseInsensitive, .diacriticInsensitive],
        ]
        let operations: [PreparedString.Operation] = [.equal, .prefix, .suffix, .substring]
        for case let name? in Self.names {
            for option in options {
                let signature = StringSignature.of(name, folding: option)
                for case let other? in Self.names {
                    let constant = PreparedString(other, options: option)
                    guard
                        let test = StringSignatureCondition(
                            folded: constant.folded, options: option, matchesFolded: { _ in true })
                    else { continue }
                    for operation in operations where constant.matches(name, operation) {
                        #expect(!signature.lacks(test.required), "\(name) \(operation) \(other) \(option)")
                    }
                }
            }
        }
    }
}
