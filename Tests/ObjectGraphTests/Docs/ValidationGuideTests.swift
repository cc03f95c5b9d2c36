import Foundation
import ObjectGraph
import Testing

/// The validation guide's examples do what Docs/Validation.md says.
@Suite struct ValidationGuideTests {
    @Test func anOverrideCallingSuperNeverReadsAMissingRequiredValue() throws {
        let container = try PersistentContainer(
            model: try ManagedObjectModel(Expense.self), storeDescription: .inMemory)
        let context = container.newContext()
        let expense = Expense(context: context)
        let error = #expect(throws: PersistenceError.self) { try context.save() }
        #expect(error?.code == .validation && error?.key == "createdAt")
        expense.createdAt = Date(timeIntervalSinceNow: -60)
        try context.save()
    }

    @Test func theAppsOwnErrorsAreReachedInOneStep() throws {
        let container = try PersistentContainer(
            model: try ManagedObjectModel(Expense.self), storeDescription: .inMemory)
        let context = container.newContext()
        Expense(context: context).createdAt = Date(timeIntervalSinceNow: 86_400)
        #expect(brokenBudgetRules(context).count == 1)
        Expense(context: context).createdAt = Date(timeIntervalSinceNow: 86_400)
        #expect(brokenBudgetRules(context).count == 2)
        context.rollback()
        #expect(brokenBudgetRules(context).isEmpty)
    }
}
