import Foundation
import ObjectGraph
import Testing

/// An app's own validation error, as ported Core Data apps define them.
enum LedgerRule: Error, Equatable {
    case postedInTheFuture
    case emptyMemo
    case lockedAccount
}

/// An entry whose overrides read a required attribute, as ported apps' do.
final class LedgerEntry: ManagedObject {
    @Attribute var createdAt: Date
    @Attribute var memo = "memo"
    @Attribute(minimum: 0) var cents: Int64 = 0
    @Relationship(inverse: "entries") var account: LedgerAccount?

    /// The validation methods that ran past their `super` call, in order.
    var checks: [String] = []

    override func validateForInsert() throws {
        try super.validateForInsert()
        checks.append("insert")
        if createdAt > Date(timeIntervalSinceNow: 3600) { throw LedgerRule.postedInTheFuture }
    }

    override func validateForUpdate() throws {
        try super.validateForUpdate()
        checks.append("update")
        if createdAt > Date(timeIntervalSinceNow: 3600) { throw LedgerRule.postedInTheFuture }
    }

    override func validateForSave() throws {
        checks.append("save")
        if memo.isEmpty { throw LedgerRule.emptyMemo }
    }
}

/// An override that reads the required attribute without calling `super` first.
final class LedgerNote: ManagedObject {
    @Attribute var writtenAt: Date
    var ran = false

    override func validateForInsert() throws {
        ran = true
        _ = writtenAt.timeIntervalSinceReferenceDate
    }
}

final class LedgerAccount: ManagedObject {
    @Attribute var name = "account"
    @Relationship(inverse: "account", deleteRule: .deny) var entries: Set<LedgerEntry>
    var isLocked = false

    override func validateForDelete() throws {
        try super.validateForDelete()
        if isLocked { throw LedgerRule.lockedAccount }
    }
}

func makeLedgerContext() throws -> (PersistentContainer, ManagedContext) {
    let model = try ManagedObjectModel(LedgerEntry.self, LedgerNote.self, LedgerAccount.self)
    let container = try PersistentContainer(model: model, storeDescription: .inMemory)
    return (container, container.newContext())
}

@Suite struct ValidationHookTests {
    @Test func saveRefusesAMissingRequiredValueBeforeTheOverrideReadsIt() throws {
        let (container, context) = try makeLedgerContext()
        let entry = LedgerEntry(context: context)
        let error = #expect(throws: PersistenceError.self) { try context.save() }
        #expect(error?.code == .validation)
        #expect(error?.key == "createdAt" && error?.objectID == entry.objectID && error?.entityName == "LedgerEntry")
        #expect(error?.detailedErrors.map(\.key) == ["createdAt"])
        #expect(entry.checks.isEmpty)
        #expect(try container.newContext().count(for: LedgerEntry.fetchRequest()) == 0)
        #expect(entry.isInserted && context.hasChanges)
    }

    @Test func anUnsetRequiredValueReadsAsNilThroughValueForKey() throws {
        let (_, context) = try makeLedgerContext()
        let entry = LedgerEntry(context: context)
        #expect(try entry.value(forKey: "createdAt") == nil)
    }

    @Test func anOverrideThatSkipsSuperIsNotCalledWithoutItsRequiredValues() throws {
        let (_, context) = try makeLedgerContext()
        let note = LedgerNote(context: context)
        let error = #expect(throws: PersistenceError.self) { try context.save() }
        #expect(error?.code == .validation && error?.key == "writtenAt")
        #expect(!note.ran)
        note.writtenAt = Date()
        try context.save()
        #expect(note.ran)
    }

    @Test func theOverrideRunsOnceTheRequiredValuesAreSet() throws {
        let (_, context) = try makeLedgerContext()
        let entry = LedgerEntry(context: context)
        entry.createdAt = Date()
        try context.save()
        #expect(entry.checks == ["save", "insert"])
    }

    @Test func anUpdateThatClearsARequiredValueIsRefusedBeforeTheOverride() throws {
        let (_, context) = try makeLedgerContext()
        let entry = LedgerEntry(context: context)
        entry.createdAt = Date()
        try context.save()
        entry.checks = []
        try entry.setValue(nil, forKey: "createdAt")
        let error = #expect(throws: PersistenceError.self) { try context.save() }
        #expect(error?.code == .validation && error?.key == "createdAt")
        #expect(entry.checks.isEmpty)
        entry.createdAt = Date()
        try context.save()
        #expect(entry.checks == ["save", "update"])
    }

    @Test func anObjectWhoseRulesFailIsReportedWithoutCallingItsOverride() throws {
        let (_, context) = try makeLedgerContext()
        let entry = LedgerEntry(context: context)
        entry.createdAt = Date()
        entry.cents = -1
        entry.memo = ""
        let error = #expect(throws: PersistenceError.self) { try context.save() }
        #expect(error?.detailedErrors.map(\.key) == ["cents"])
        #expect(entry.checks.isEmpty)
    }

    @Test func everyObjectsFailuresAreStillListedTogether() throws {
        let (_, context) = try makeLedgerContext()
        let missing = LedgerEntry(context: context)
        let empty = LedgerEntry(context: context)
        empty.createdAt = Date()
        empty.memo = ""
        let error = #expect(throws: PersistenceError.self) { try context.save() }
        #expect(error?.detailedErrors.count == 2)
        #expect(error?.detailedErrors.map(\.objectID) == [missing.objectID, empty.objectID])
        #expect(error?.detailedErrors.map(\.key) == ["createdAt", nil])
        #expect(error?.underlyingErrors(as: LedgerRule.self) == [.emptyMemo])
    }

    @Test func superValidateForInsertRefusesMissingRequiredValuesWhenCalledDirectly() throws {
        let (_, context) = try makeLedgerContext()
        let entry = LedgerEntry(context: context)
        let error = #expect(throws: PersistenceError.self) { try entry.validateForInsert() }
        #expect(error?.code == .validation && error?.key == "createdAt" && error?.objectID == entry.objectID)
        #expect(entry.checks.isEmpty)
        entry.cents = -5
        let both = #expect(throws: PersistenceError.self) { try entry.validateForUpdate() }
        #expect(both?.code == .validation)
        #expect(Set(both?.detailedErrors.compactMap(\.key) ?? []) == ["createdAt", "cents"])
        entry.createdAt = Date()
        entry.cents = 5
        try entry.validateForInsert()
        #expect(entry.checks == ["save", "insert"])
    }

    @Test func aDetachedObjectValidatesItsRequiredValues() throws {
        let model = try ManagedObjectModel(LedgerEntry.self, LedgerNote.self, LedgerAccount.self)
        let entity = try #require(model.entity(named: "LedgerNote"))
        let note = LedgerNote(entity: entity, insertInto: nil)
        let error = #expect(throws: PersistenceError.self) { try note.validateForUpdate() }
        #expect(error?.code == .validation && error?.key == "writtenAt")
    }

    @Test func superValidateForDeleteRefusesANonEmptyDenyRelationship() throws {
        let (_, context) = try makeLedgerContext()
        let account = LedgerAccount(context: context)
        let entry = LedgerEntry(context: context)
        entry.createdAt = Date()
        entry.account = account
        try context.save()
        context.delete(account)
        let direct = #expect(throws: PersistenceError.self) { try account.validateForDelete() }
        #expect(direct?.code == .validation && direct?.key == "entries")
        account.isLocked = true
        let error = #expect(throws: PersistenceError.self) { try context.save() }
        // The deny rule refuses the deletion first; the override's own check is not reached.
        #expect(error?.detailedErrors.map(\.key) == ["entries"])
        #expect(error?.underlyingError(as: LedgerRule.self) == nil)
    }

    @Test func anOverrideOfValidateForDeleteRunsWhenTheDenyRuleHolds() throws {
        let (container, context) = try makeLedgerContext()
        let account = LedgerAccount(context: context)
        try context.save()
        account.isLocked = true
        context.delete(account)
        let error = #expect(throws: PersistenceError.self) { try context.save() }
        #expect(error?.underlying as? LedgerRule == .lockedAccount)
        #expect(try container.newContext().count(for: LedgerAccount.fetchRequest()) == 1)
    }

    @Test func aChildContextSaveValidatesTheSameWay() throws {
        let (_, context) = try makeLedgerContext()
        let child = context.newChildContext()
        let entry = LedgerEntry(context: child)
        let error = #expect(throws: PersistenceError.self) { try child.save() }
        #expect(error?.code == .validation && error?.key == "createdAt")
        #expect(entry.checks.isEmpty)
    }
}
