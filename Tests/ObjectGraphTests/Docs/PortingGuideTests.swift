import Foundation
import ObjectGraph
import ObjectGraphTesting
import Testing

/// Runs the porting guide's examples and checks that they do what the guide says.
@Suite struct PortingGuideTests {
    private func makeContext() throws -> ManagedContext {
        try PersistentContainer.forTesting(Purchase.self, Bill.self, Payment.self).newContext()
    }

    @Test func validationOverrideInTheClassBodyRuns() throws {
        let context = try makeContext()
        let purchase = Purchase(context: context)
        purchase.amount = -1
        let error = #expect(throws: PersistenceError.self) { try context.save() }
        #expect(error?.code == .validation)
        #expect(
            error.map { ([$0] + $0.detailedErrors).contains { $0.message.contains("must not be negative") } } == true)
        purchase.amount = 5
        try context.save()
        purchase.amount = -2
        #expect(throws: PersistenceError.self) { try context.save() }
    }

    @Test func codableAttributeAndOptionalScalarRoundTrip() throws {
        let url = TemporaryDirectory.make().appendingPathComponent("bills.json")
        let model = try ManagedObjectModel(Purchase.self, Bill.self, Payment.self)
        do {
            let context = try PersistentContainer(model: model, storeDescription: .jsonFile(url)).newContext()
            let rent = Bill(context: context)
            rent.payee = "landlord"
            rent.recurrence = Recurrence(everyDays: 30, skipsWeekends: false)
            let gift = Bill(context: context)
            gift.payee = "friend"
            try gift.setValue(nil, forKey: "isPaid")
            try context.save()
        }
        let context = try PersistentContainer(model: model, storeDescription: .jsonFile(url)).newContext()
        let bills = try context.fetch(FetchRequest<Bill>(sortDescriptors: [FetchSortDescriptor(key: "payee")]))
        #expect(bills.map(\.recurrence) == [nil, Recurrence(everyDays: 30, skipsWeekends: false)])
        #expect(bills.map(\.isPaid) == [false, false])
        #expect(try context.fetch(FetchRequest<Bill>(predicate: FetchPredicate(format: "isPaid == nil"))) == [bills[0]])
    }

    @Test func paymentsComputeWithDecimalArithmetic() throws {
        let context = try makeContext()
        let bill = Bill(context: context)
        bill.amount = Decimal(string: "100.005")!
        #expect(try pay(bill, Decimal(string: "40.00")!, in: context) == Decimal(string: "60")!)
        #expect(!bill.isPaid)
        #expect(try pay(bill, Decimal(string: "60.005")!, in: context) == 0)
        #expect(bill.isPaid)
        #expect(bill.payments.count == 2)
    }

    @Test func constantAndFormatPredicatesFetch() throws {
        let context = try makeContext()
        let paid = Bill(context: context)
        paid.amount = 10
        paid.isPaid = true
        let small = Bill(context: context)
        small.amount = 5
        let large = Bill(context: context)
        large.amount = 50
        let payment = Payment(context: context)
        payment.paidAt = Date(timeIntervalSinceReferenceDate: 0)
        large.payments = [payment]
        try context.save()
        #expect(try unpaidBills(in: context) == [large, small])
        let due = FetchRequest<Bill>(predicate: try Bill.due(before: Date(timeIntervalSinceReferenceDate: 1)))
        #expect(try context.fetch(due) == [large])
        #expect(Bill.unpaid.description == "isPaid == NO")
    }
}
