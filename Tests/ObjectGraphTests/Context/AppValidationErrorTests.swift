import Foundation
import ObjectGraph
import Testing

@Suite struct AppValidationErrorTests {
    private func futureEntry(_ context: ManagedContext) -> LedgerEntry {
        let entry = LedgerEntry(context: context)
        entry.createdAt = Date(timeIntervalSinceNow: 86_400)
        return entry
    }

    @Test func oneFailureCarriesTheAppsErrorAsItsUnderlyingError() throws {
        let (_, context) = try makeLedgerContext()
        let entry = futureEntry(context)
        let error = #expect(throws: PersistenceError.self) { try context.save() }
        #expect(error?.code == .validation && error?.objectID == entry.objectID && error?.entityName == "LedgerEntry")
        #expect(error?.underlying as? LedgerRule == .postedInTheFuture)
        #expect(error?.underlyingError(as: LedgerRule.self) == .postedInTheFuture)
        #expect(error?.underlyingErrors(as: LedgerRule.self) == [.postedInTheFuture])
        #expect(error?.detailedErrors.map { $0.underlying as? LedgerRule } == [.postedInTheFuture])
    }

    @Test func existingCatchClausesStillMatch() throws {
        let (_, context) = try makeLedgerContext()
        _ = futureEntry(context)
        var matched = false
        do {
            try context.save()
        } catch PersistenceError.Code.validation {
            matched = true
        }
        #expect(matched)
    }

    @Test func severalFailuresEachCarryTheirAppError() throws {
        let (_, context) = try makeLedgerContext()
        _ = futureEntry(context)
        let empty = LedgerEntry(context: context)
        empty.createdAt = Date()
        empty.memo = ""
        let error = #expect(throws: PersistenceError.self) { try context.save() }
        #expect(error?.detailedErrors.count == 2)
        #expect(error?.underlying == nil)
        #expect(error?.detailedErrors.map { $0.underlying as? LedgerRule } == [.postedInTheFuture, .emptyMemo])
        #expect(error?.underlyingErrors(as: LedgerRule.self) == [.postedInTheFuture, .emptyMemo])
        #expect(error?.underlyingError(as: LedgerRule.self) == .postedInTheFuture)
    }

    @Test func anAppErrorWrappedInAValidationErrorIsFoundInOneStep() throws {
        let (_, context) = try makeLedgerContext()
        let entry = LedgerEntry(context: context)
        let wrapped = PersistenceError.validation("Locked.", object: entry, underlying: LedgerRule.lockedAccount)
        let outer = PersistenceError.validation("Outer.", object: entry, underlying: wrapped)
        #expect(outer.underlyingError(as: LedgerRule.self) == .lockedAccount)
        #expect(outer.underlyingError(as: PersistenceError.self)?.message == "Locked.")
        #expect(outer.underlyingError(as: CocoaError.self) == nil)
    }

    @Test func theMessageNamesTheObjectAndTheAppsErrorTypeButNoValues() throws {
        let (_, context) = try makeLedgerContext()
        let entry = futureEntry(context)
        let error = #expect(throws: PersistenceError.self) { try context.save() }
        #expect(error?.message.contains("\(entry.objectID)") == true)
        #expect(error?.message.contains("LedgerRule") == true)
        // The app's error may describe values; it is in `underlying`, not in the message.
        #expect(error?.message.contains("postedInTheFuture") == false)
    }

    @Test func aChildContextSaveCarriesTheAppsErrorToo() throws {
        let (_, context) = try makeLedgerContext()
        let child = context.newChildContext()
        _ = futureEntry(child)
        let error = #expect(throws: PersistenceError.self) { try child.save() }
        #expect(error?.underlying as? LedgerRule == .postedInTheFuture)
    }
}
