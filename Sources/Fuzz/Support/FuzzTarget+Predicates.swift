import Foundation
import ObjectGraph

extension FuzzTarget {
    /// The arguments every fuzzed format string is parsed with, for its `%@`, `%K` and `%d`.
    static var predicateArguments: [Any?] {
        ["text", "caf", 7, 1.5, ["red", "blue"], nil, Date(timeIntervalSince1970: 0)]
    }

    /// The longest error message a predicate may produce: messages quote caller text only up to
    /// a limit (Docs/Predicates.md, "Limits"), so an attacker's format cannot make them large.
    static let maximumPredicateMessage = 4_096

    /// The codes a predicate from untrusted text may be refused with, when parsed or fetched.
    static let predicateCodes: Set<PersistenceError.Code> = [
        .invalidPredicate, .unsupportedPredicate, .unknownKey, .typeMismatch, .invalidFetchRequest,
    ]

    /// A container over ``FuzzModel/sampleSnapshot()`` (two items, an owner and a tag) that
    /// fetches run against; saves are never made.
    static let predicateContainer: PersistentContainer = {
        // A fixed, valid model over an in-memory sample: no fuzz input reaches this open, and a
        // harness that cannot open it has nothing to run (the trap says so at once).
        try! PersistentContainer(model: FuzzModel.model, store: SampleStore())
    }()

    /// A predicate target input: the first byte says how many of ``predicateArguments`` are
    /// passed (modulo their number plus one), the rest is the format string in UTF-8.
    static func predicateInput(arguments: Int, format: String) -> [UInt8] {
        [UInt8(arguments)] + Array(format.utf8)
    }

    /// The bytes as a predicate format string, as a server API taking filters would get it:
    /// parsed with the first of ``predicateArguments`` (as many as the first byte says), printed
    /// and parsed again (it must read back the same), then fetched and counted on the sample's
    /// items.
    func evaluatePredicateFormat(_ bytes: [UInt8]) -> FuzzOutcome {
        let all = Self.predicateArguments
        let arguments = Array(all.prefix(Int(bytes.first ?? 0) % (all.count + 1)))
        let format = String(decoding: bytes.dropFirst(), as: UTF8.self)
        let predicate: FetchPredicate
        do {
            predicate = try FetchPredicate(format: format, argumentArray: arguments)
        } catch {
            return predicateRejection(error, format: format)
        }
        let printed = predicate.description
        do {
            let reparsed = try FetchPredicate(format: printed)
            guard reparsed == predicate else {
                return .violation("the predicate prints as '\(printed)', which parses to a different predicate")
            }
        } catch {
            return .violation("the predicate prints as '\(printed)', which does not parse: \(error)")
        }
        let context = Self.predicateContainer.newContext()
        let request = FetchRequest<ManagedObject>(entityName: "Item", predicate: predicate)
        let matches: Int
        do {
            matches = try context.fetch(request).count
        } catch {
            return predicateRejection(error, format: format)
        }
        do {
            let counted = try context.count(for: request)
            guard counted == matches else { return .violation("fetch returns \(matches) items, count \(counted)") }
        } catch {
            return .violation("the predicate fetches but does not count: \(error)")
        }
        return .decoded(objects: matches)
    }

    /// Checks that an error for a predicate is typed, with an allowed code, a bounded message and
    /// a position inside the format.
    private func predicateRejection(_ error: any Error, format: String) -> FuzzOutcome {
        guard let error = error as? PersistenceError else {
            return .violation("an untyped error: \(type(of: error)): \(error)")
        }
        guard Self.predicateCodes.contains(error.code) else { return .violation("an unexpected code: \(error)") }
        guard !error.message.isEmpty, error.message.utf8.count <= Self.maximumPredicateMessage else {
            return .violation("a message of \(error.message.utf8.count) bytes")
        }
        if let position = error.position, position < 0 || position > format.utf8.count {
            return .violation("the position \(position) is outside the \(format.utf8.count) bytes: \(error)")
        }
        return .rejected(error)
    }

    /// The predicate target's seeds: formats that use each part of the language.
    static let predicateSeeds: [(name: String, arguments: Int, format: String)] = [
        ("comparison.predicate", 0, "large > 5 AND text != 'x'"),
        ("string-operators.predicate", 1, "text BEGINSWITH[cd] %@ OR text CONTAINS[c] 'QUOTED' OR text LIKE '*af?*'"),
        (
            "between-in.predicate", 5,
            "%K != %@ AND medium BETWEEN {-10, 100000} AND small != %d AND real > %@ AND NOT (text IN %@)"
        ),
        (
            "key-argument.predicate", 7,
            "%K ENDSWITH 'd\\\"\\n' OR %@ == text OR small == %d OR real < %@ OR text IN %@ OR %@ == nil OR date > %@"
        ),
        ("to-many.predicate", 0, "ANY tags.title == 'red' AND owner.name == 'ann' AND tags.@count >= 1"),
        ("subquery.predicate", 0, "SUBQUERY(tags, $t, $t.title MATCHES 'r.d' OR $t.items.@count > 1).@count > 0"),
        (
            "functions.predicate", 0,
            "real * 2 + 1 < single OR abs(large) > 1099511627775 OR uppercase:(text) BEGINSWITH 'CAF'"
        ),
        (
            "literals.predicate", 0,
            "flag == YES OR date < CAST(1000.5, 'NSDate') OR amount == 12.34 OR identifier != nil"
        ),
        ("aggregates.predicate", 0, "ALL tags.title != '' AND NONE tags.title == 'blue' AND {1, 2, 3}.@max == 3"),
        ("ternary.predicate", 0, "TERNARY(flag == YES, large, 0) == -1099511627776 OR text ==[n] \"\""),
    ]
}

/// A store that always loads the fuzz model's sample and refuses saves.
final class SampleStore: PersistentStore {
    let isReadOnly = true

    func load(model: ManagedObjectModel) throws -> StoreSnapshot { FuzzModel.sampleSnapshot() }

    func save(_ changes: StoreChangeSet) throws {
        throw CocoaError(.featureUnsupported)
    }

    func close() {}
}
