import Foundation
import ObjectGraph
import Testing

/// One test of a shared suite, run on another store.
struct SharedSuiteCase: Sendable, CustomTestStringConvertible {
    let name: String
    let body: @Sendable () throws -> Void

    init(_ name: String, _ body: @escaping @Sendable () throws -> Void) {
        self.name = name
        self.body = body
    }

    var testDescription: String { name }
}

/// The predicate table and the integrity tests, unchanged, on the PostgreSQL store: each test
/// body runs with `SharedSuiteStore.kind` set to `.postgres`, so that its fixture or container is
/// a PostgreSQL store in a schema of its own. Runs when a server is configured, and always in CI.
@Suite(
    .enabled(if: PostgresTestStore.isEnabled, "set OBJECTGRAPH_POSTGRES_URL (scripts/postgres-server.sh start)"),
    .dropsPostgresSchemas)
struct PostgresSharedSuiteTests {
    // MARK: - The predicate table

    @Test(arguments: PredicateCase.all)
    func predicateTableSelectsTheExpectedSavedObjects(_ row: PredicateCase) throws {
        try SharedSuiteStore.$kind.withValue(.postgres) {
            try PredicateEvaluationTests().selectsTheExpectedSavedObjects(row)
        }
    }

    @Test(arguments: PredicateCase.all)
    func predicateTableSelectsTheSameRowsReadBackByAnotherContainer(_ row: PredicateCase) throws {
        let description = PostgresTestStore.makeDescription()
        let saved = try PredicateFixture(storeDescription: description)
        let reopened = try PredicateFixture(reopening: description)
        #expect(try reopened.names(matching: row.predicate(in: reopened)) == row.expected)
        withExtendedLifetime(saved) {}
    }

    // MARK: - The SQL translation oracle

    @Test func handPickedPredicatesOnAwkwardValuesMatchTheEngineOnPostgres() throws {
        try SharedSuiteStore.$kind.withValue(.postgres) {
            try SQLTranslationOracleTests().handPickedPredicatesOnAwkwardValuesMatchTheEngine()
        }
    }

    @Test func randomPredicatesMatchTheEngineOnPostgres() throws {
        try SharedSuiteStore.$kind.withValue(.postgres) {
            try SQLTranslationOracleTests().twoThousandRandomPredicatesMatchTheEngine()
        }
    }

    @Test func randomPredicatesWithSortsMatchTheEnginesOrderOnPostgres() throws {
        try SharedSuiteStore.$kind.withValue(.postgres) {
            try SQLTranslationOracleTests().randomPredicatesWithSortsMatchTheEnginesOrder()
        }
    }

    // MARK: - The integrity tests

    static let integrity: [SharedSuiteCase] = [
        .init("cascadeRunsThreeLevelsDeep") { try DeleteRuleTests().cascadeRunsThreeLevelsDeep() },
        .init("cascadeCycleTerminates") { try DeleteRuleTests().cascadeCycleTerminates() },
        .init("denyLeavesStoreOtherContextsAndPendingChangesUnchanged") {
            try DeleteRuleTests().denyLeavesStoreOtherContextsAndPendingChangesUnchanged()
        },
        .init("nullifyKeepsOneToOneOneToManyAndManyToManyConsistent") {
            try DeleteRuleTests().nullifyKeepsOneToOneOneToManyAndManyToManyConsistent()
        },
        .init("orderedToManyKeepsOrderAndInverse") { try DeleteRuleTests().orderedToManyKeepsOrderAndInverse() },
        .init("validateForDeleteRefusesTheDeletion") { try DeleteRuleTests().validateForDeleteRefusesTheDeletion() },
        .init("processPendingChangesHasAlreadyAppliedDeleteRules") {
            try DeleteRuleTests().processPendingChangesHasAlreadyAppliedDeleteRules()
        },
        .init("errorPolicyRefusesAndChangesNothing") { try MergePolicyTests().errorPolicyRefusesAndChangesNothing() },
        .init("objectTrumpOverwritesEverything") { try MergePolicyTests().objectTrumpOverwritesEverything() },
        .init("storeTrumpDropsThisContextsChange") { try MergePolicyTests().storeTrumpDropsThisContextsChange() },
        .init("propertyMergeKeepsTheOtherContextsUntouchedKeys") {
            try MergePolicyTests().propertyMergeKeepsTheOtherContextsUntouchedKeys()
        },
        .init("propertyMergeResolvesKeysBothChangedByPolicy") {
            try MergePolicyTests().propertyMergeResolvesKeysBothChangedByPolicy()
        },
        .init("updateOfAnObjectDeletedElsewhere") { try MergePolicyTests().updateOfAnObjectDeletedElsewhere() },
        .init("deleteOfAnObjectChangedElsewhere") { try MergePolicyTests().deleteOfAnObjectChangedElsewhere() },
        .init("duplicateIsAConflictNamingBothObjects") {
            try UniquenessTests().duplicateIsAConflictNamingBothObjects()
        },
        .init("compoundConstraintAndNilValues") { try UniquenessTests().compoundConstraintAndNilValues() },
        .init("duplicatesWithinOneSave") { try UniquenessTests().duplicatesWithinOneSave() },
        .init("objectTrumpMergesTheNewValuesIntoTheStoredObject") {
            try UniquenessTests().objectTrumpMergesTheNewValuesIntoTheStoredObject()
        },
        .init("storeTrumpKeepsTheStoredValuesAndDiscardsTheNewObject") {
            try UniquenessTests().storeTrumpKeepsTheStoredValuesAndDiscardsTheNewObject()
        },
        .init("updateThatCollidesIsAlwaysAConflict") { try UniquenessTests().updateThatCollidesIsAlwaysAConflict() },
        .init("aMergeThatBreaksAnotherConstraintIsAConflict") {
            try UniquenessMergeTests().aMergeThatBreaksAnotherConstraintIsAConflict()
        },
        .init("everyRuleIsCheckedAndEveryFailureListed") {
            try ValidationRuleTests().everyRuleIsCheckedAndEveryFailureListed()
        },
        .init("valuesAtTheBoundsAreValid") { try ValidationRuleTests().valuesAtTheBoundsAreValid() },
        .init("patternMustMatchTheWholeString") { try ValidationRuleTests().patternMustMatchTheWholeString() },
        .init("validateForInsertRunsOnlyForInserts") {
            try ValidationRuleTests().validateForInsertRunsOnlyForInserts()
        },
        .init("decimalAndDoubleBoundsCompareNumerically") {
            try ValidationRuleTests().decimalAndDoubleBoundsCompareNumerically()
        },
    ]

    @Test(arguments: integrity)
    func integrityTestPassesOnPostgres(_ test: SharedSuiteCase) throws {
        try SharedSuiteStore.$kind.withValue(.postgres) { try test.body() }
    }
}
