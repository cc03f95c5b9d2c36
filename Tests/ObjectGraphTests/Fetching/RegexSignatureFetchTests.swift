import Foundation
import Testing

@testable import ObjectGraph

/// `MATCHES` rules rows out by the signatures of the literal text its pattern requires
/// (`PredicateRegex.requiredLiterals`) before it runs the regex: fetches must return exactly
/// what running the regex on every row returns, including values whose case-insensitive or
/// folded forms trip a shortcut (Kelvin sign, long s, sharp s, ligatures, dotted I).
@Suite struct RegexSignatureFetchTests {
    static let formats = [
        "name MATCHES '.*xyz.*'", "name MATCHES[c] '.*XYZ.*'", "name MATCHES[d] '.*xyz.*'",
        "name MATCHES[cd] '.*XÝZ.*'", "name MATCHES 'w[0-9]+ item'", "name MATCHES[c] 'W[0-9]+ ITEM'",
        "name MATCHES '(?i).*XYZ.*'", "name MATCHES[c] '.*ss.*'", "name MATCHES[c] '.*ß.*'",
        "name MATCHES[c] '.*k.*'", "name MATCHES[c] '.*K XYZ'", "name MATCHES[c] '.*FI.*'",
        "name MATCHES[c] 'i̇stanbul'", "name MATCHES[c] 'ISTANBUL'", "name MATCHES[cd] 'cafe.*'",
        "name MATCHES 'caf(e|é).*'", "name MATCHES '[^]x]*xyz.*'", "name MATCHES 'x?yz.*'",
        "name MATCHES '\\\\Qxyz\\\\E.*'", "name MATCHES 'nothing|.*xyz.*'", "name MATCHES '.*\\\\p{L}yz.*'",
        "name MATCHES '.*x{1,2}yz.*'", "name MATCHES 'why\\\\;'", "name MATCHES[d] '.*e.*'",
        "name MATCHES '.*\\\\x{301}.*'", "name MATCHES 'w1\\\\r\\\\nxyz'", "name MATCHES '.*'",
        "name MATCHES[cd] '.*Ω.*'", "name MATCHES '日本.*'", "name MATCHES[c] 'STRASSE'",
    ]

    @Test func fetchesAgreeWithRunningTheRegexOnEveryRow() throws {
        var store = try SignatureColumnFetchTests.Store(count: 3_000)
        try expectAgreement(store)
        // Saved changes after the columns exist.
        let objects = try store.context.fetch(FetchRequest<ManagedObject>(entityName: "Item"))
        for object in objects where object.objectID.key % 7 == 0 { try object.setValue(store.name(), forKey: "name") }
        for _ in 0..<500 { try store.insert() }
        try store.context.save()
        try expectAgreement(store)
    }

    private func expectAgreement(_ store: SignatureColumnFetchTests.Store) throws {
        for format in Self.formats {
            let predicate = try FetchPredicate(format: format)
            let fetched = try store.fetchedKeys(predicate)
            #expect(fetched == (try store.committedKeys(predicate)), "\(format)")
        }
    }

    // MARK: - Required literals

    @Test func requiredLiteralsAreTheTopLevelRunsOfLiteralText() {
        func literals(_ pattern: String, caseInsensitive: Bool = false) -> [String] {
            PredicateRegex.requiredLiterals(in: pattern, caseInsensitive: caseInsensitive)
        }
        #expect(literals("[a-z] xyz .*") == [" xyz "])
        #expect(literals(".* item 12[0-9]*") == [" item 12"])
        #expect(literals("ab?c") == ["a", "c"])
        #expect(literals("ab+c") == ["a", "c"])
        #expect(literals("x{2}yz") == ["yz"])
        #expect(literals("a\\.b\\*") == ["a.b*"])
        #expect(literals("[]a]bc(d|e)f") == ["bc", "f"])
        #expect(literals("\\p{Lu}abc\\d") == ["abc"])
        #expect(literals("ab(?=cd)ef") == ["ab", "ef"])
        #expect(literals("a|b").isEmpty)
        #expect(literals("(?i)abc").isEmpty)
        #expect(literals("\\Qabc\\E").isEmpty)
        #expect(literals("x y z", caseInsensitive: true) == ["x ", " z"])
        #expect(literals("XÝZ 12", caseInsensitive: true) == ["X", "Z 12"])
    }
}
