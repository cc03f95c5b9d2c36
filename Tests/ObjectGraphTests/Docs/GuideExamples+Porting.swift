// The porting part of PortingFromCoreData.md (validation overrides, Transformable, Decimal,
// optional scalars, constant predicates) and Testing.md's main-actor tests, compiled here;
// GuideTests checks that every Swift block of a guide is one of these regions, and
// PortingGuideTests runs them.
import Foundation
import ObjectGraph
import ObjectGraphTesting
import Testing
import XCTest

// PortingFromCoreData example 3 begin
final class Purchase: ManagedObject {
    @Attribute var title = ""
    @Attribute var amount = Decimal(0)  // NSDecimalNumber
    @Attribute var spentAt = Date()

    // The overrides stay in the class body; the checks they call may live in an extension.
    override func validateForInsert() throws {
        try super.validateForInsert()
        try validateAmount()
    }

    override func validateForUpdate() throws {
        try super.validateForUpdate()
        try validateAmount()
    }
}

extension Purchase {
    // extension Purchase { override func validateForInsert() … } does not compile in Swift.
    func validateAmount() throws {
        guard amount >= 0 else {
            throw PersistenceError.validation("A purchase's amount must not be negative.", object: self, key: "amount")
        }
    }
}
// PortingFromCoreData example 3 end

// PortingFromCoreData example 4 begin
/// Was a Transformable attribute (NSSecureUnarchiveFromDataTransformer): now any Codable value.
struct Recurrence: Codable, Hashable, AttributeValue {
    var everyDays: Int
    var skipsWeekends: Bool
}

final class Bill: ManagedObject {
    @Attribute var payee = ""
    @Attribute var amount = Decimal(0)  // NSDecimalNumber
    @Attribute var recurrence: Recurrence?  // Transformable, optional
    @Attribute(optional: true) var isPaid = false  // optional attribute with "Use Scalar Type"
    @Relationship(inverse: "bill", deleteRule: .cascade) var payments: Set<Payment>  // NSSet
}

final class Payment: ManagedObject {
    @Attribute var amount = Decimal(0)
    @Attribute var paidAt = Date()
    @Relationship(inverse: "payments") var bill: Bill?
}
// PortingFromCoreData example 4 end

// PortingFromCoreData example 5 begin
func pay(_ bill: Bill, _ amount: Decimal, in context: ManagedContext) throws -> Decimal {
    let payment = Payment(context: context)
    payment.amount = amount
    bill.payments.insert(payment)  // bill.mutableSetValue(forKey: "payments").add(payment)

    // bill.payments.value(forKeyPath: "@sum.amount") as NSDecimalNumber
    let paid = bill.payments.reduce(Decimal(0)) { $0 + $1.amount }
    // bill.amount.subtracting(paid, withBehavior: NSDecimalNumberHandler(roundingMode: .bankers, scale: 2, …))
    var remaining = bill.amount - paid
    var rounded = Decimal()
    NSDecimalRound(&rounded, &remaining, 2, .bankers)
    bill.isPaid = rounded <= 0
    try context.save()
    return rounded
}
// PortingFromCoreData example 5 end

// PortingFromCoreData example 6 begin
extension Bill {
    /// NSPredicate(format: "isPaid == NO"): a #Predicate is checked by the compiler, so it needs no `try`.
    static let unpaid = FetchPredicate(#Predicate<Bill> { $0.isPaid == false })

    /// A format string is parsed when the program runs, so building one throws.
    static func due(before date: Date) throws -> FetchPredicate {
        try FetchPredicate(format: "isPaid == NO AND ANY payments.paidAt < %@", date as NSDate)
    }
}

func unpaidBills(in context: ManagedContext) throws -> [Bill] {
    var request = Bill.fetchRequest()
    request.predicate = Bill.unpaid
    // [NSSortDescriptor(key: "amount", ascending: false)]; SwiftData's way works too:
    // request.sortBy = [SortDescriptor(\.amount, order: .reverse)]
    request.sortDescriptors = [SortDescriptor(key: "amount", ascending: false)]
    return try context.fetch(request)
}
// PortingFromCoreData example 6 end

// Testing example 6 begin
/// Not `@MainActor` as a whole: Linux's XCTest aborts the whole run when a test case class is
/// main-actor isolated. The test hops to the main actor for the code that uses `viewContext`.
final class HabitScreenXCTests: XCTestCase {
    func testTheViewContextShowsAStartedHabit() async throws {
        let container = try PersistentContainer.forTesting(Habit.self)
        try await MainActor.run {
            let tracker = HabitTracker(context: container.viewContext)
            _ = try tracker.start("stretch")
            XCTAssertEqual(try container.viewContext.count(for: Habit.fetchRequest()), 1)
        }
    }
}

/// Swift Testing isolates single tests: `@MainActor @Test` works on every platform.
@Suite struct HabitScreenTests {
    @MainActor @Test func theViewContextShowsAStartedHabit() throws {
        let container = try PersistentContainer.forTesting(Habit.self)
        _ = try HabitTracker(context: container.viewContext).start("stretch")
        #expect(try container.viewContext.count(for: Habit.fetchRequest()) == 1)
    }
}
// Testing example 6 end
