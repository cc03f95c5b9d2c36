/// How many related objects one fetch may reach while evaluating its predicate (through key
/// paths, `SUBQUERY`s and aggregates): nested `SUBQUERY`s over to-many relationships multiply,
/// and without a bound a short predicate could run for hours. Once spent, related objects read
/// as missing (so evaluation winds down at once) and the fetch throws (Docs/Predicates.md,
/// "Limits").
///
/// One per fetch, used on the fetching thread only; not `Sendable`.
final class PredicateWorkBudget {
    /// The least any fetch may spend: 2^22 (about four million) related objects.
    static let minimum = 1 << 22
    /// And per object the fetch scans.
    static let perObject = 256

    private(set) var remaining: Int

    /// A budget for a fetch that scans `objects` objects.
    init(objects: Int) {
        remaining = max(Self.minimum, Self.perObject.multipliedReportingOverflow(by: max(0, objects)).partialValue)
    }

    /// Spends one unit; false once the budget is spent.
    func spend() -> Bool {
        remaining -= 1
        return remaining >= 0
    }

    /// Throws if the budget ran out during the fetch.
    ///
    /// - Throws: `PersistenceError.Code.invalidPredicate` naming `entity`.
    func check(entity: String) throws {
        guard remaining < 0 else { return }
        throw PersistenceError.predicateTooExpensive(entity: entity)
    }
}
