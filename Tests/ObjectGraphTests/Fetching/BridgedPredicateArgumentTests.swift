import Foundation
import ObjectGraph
import Testing

/// Foundation's bridged objects as predicate arguments and values mean what their Swift
/// counterparts mean, as in ported Core Data code (`date as NSDate`).
@Suite struct BridgedPredicateArgumentTests {
    private let date = Date(timeIntervalSinceReferenceDate: 700_000_000)
    private let uuid = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!

    private func same(_ format: String, _ bridged: Any?, _ swift: Any?) throws -> Bool {
        try FetchPredicate(format: format, bridged) == FetchPredicate(format: format, swift)
    }

    // MARK: - Binding

    @Test func bridgedObjectsBindAsTheirSwiftCounterparts() throws {
        #expect(try same("date == %@", date as NSDate, date))
        #expect(try same("text == %@", NSString(string: "pear"), "pear"))
        #expect(try same("identifier == %@", NSUUID(uuidString: uuid.uuidString)!, uuid))
        #expect(try same("amount == %@", NSDecimalNumber(string: "12.34"), Decimal(string: "12.34")!))
        #expect(try same("link == %@", NSURL(string: "https://example.com/a")!, URL(string: "https://example.com/a")!))
        #expect(try same("blob == %@", NSData(data: Data([1, 2, 3])), Data([1, 2, 3])))
        #expect(try same("text IN %@", NSArray(array: ["a", NSString(string: "b")]), ["a", "b"]))
        #expect(try same("count IN %@", NSSet(array: [3, 1, 2]), Set([1, 2, 3])))
        #expect(try same("count IN %@", NSOrderedSet(array: [3, 1]), [3, 1]))
        #expect(try same("optionalText == %@", NSNull(), nil))
        #expect(try same("date IN %@", NSArray(array: [date as NSDate]), [date]))
    }

    @Test func numbersBindByWhatTheyHold() throws {
        #expect(try same("flag == %@", NSNumber(value: true), true))
        #expect(try same("flag == %@", true as NSNumber, true))
        #expect(try same("flag == %@", NSNumber(value: false), false))
        #expect(try same("count == %@", NSNumber(value: 1), 1))
        #expect(try same("count == %@", NSNumber(value: Int8(1)), 1))
        #expect(try same("count == %@", NSNumber(value: UInt8(200)), 200))
        #expect(try same("count == %@", NSNumber(value: Int64.min), Int64.min))
        #expect(try same("real == %@", NSNumber(value: 2.5), 2.5))
        #expect(try same("real == %@", NSNumber(value: Float(1.5)), 1.5))
        #expect(try same("count == %d", NSNumber(value: 7), 7))
        #expect(try same("real < %f", NSNumber(value: 7), 7.0))
        #expect(try same("count == %@", NSNumber(value: UInt64(Int64.max)), Int64.max))
    }

    @Test func integerBeyondSixtyFourBitsIsRefused() throws {
        let error = #expect(throws: PersistenceError.self) {
            try FetchPredicate(format: "count == %@", NSNumber(value: UInt64.max))
        }
        #expect(error?.code == .invalidPredicate)
    }

    @Test func dictionaryStaysRefused() throws {
        let error = #expect(throws: PersistenceError.self) {
            try FetchPredicate(format: "count IN %@", NSDictionary(dictionary: ["a": 1]))
        }
        #expect(error?.code == .invalidPredicate)
    }

    @Test func substitutionVariablesTakeBridgedValues() throws {
        let template = try FetchPredicate(format: "date < $LIMIT AND count == $COUNT")
        let bridged = try template.withSubstitutionVariables(["LIMIT": date as NSDate, "COUNT": NSNumber(value: 2)])
        let swift = try template.withSubstitutionVariables(["LIMIT": date, "COUNT": 2])
        #expect(bridged == swift)
    }

    // MARK: - Fetching

    @Test func fetchesWithBridgedArgumentsMatchAsWithSwiftValues() throws {
        let (_, context) = try makeContext(model: TestModels.samples)
        for (index, flag) in [true, false, true].enumerated() {
            let sample = Sample(context: context)
            sample.required = "r"
            sample.flag = flag
            sample.count = index
            sample.real = Double(index) + 0.5
            sample.date = date.addingTimeInterval(Double(index))
            sample.text = "item \(index)"
        }
        try context.save()
        func count(_ format: String, _ arguments: Any?...) throws -> Int {
            try context.count(
                for: FetchRequest<Sample>(predicate: FetchPredicate(format: format, argumentArray: arguments)))
        }
        #expect(try count("flag == %@", NSNumber(value: true)) == 2)
        #expect(try count("flag == %@", NSNumber(value: 0)) == 1)
        #expect(try count("date > %@", date as NSDate) == 2)
        #expect(try count("count >= %@", NSNumber(value: 1)) == 2)
        #expect(try count("real > %@", NSNumber(value: 1.0)) == 2)
        #expect(try count("text IN %@", NSSet(array: ["item 0", "item 2"])) == 2)
        #expect(try count("text BEGINSWITH %@", NSString(string: "item")) == 3)
        #expect(try count("optionalText == %@", NSNull()) == 3)
    }

    // MARK: - Values set by key

    @Test func setValueTakesBridgedValues() throws {
        let (_, context) = try makeContext(model: TestModels.samples)
        let sample = Sample(context: context)
        try sample.setValue(NSString(string: "pear"), forKey: "text")
        try sample.setValue(date as NSDate, forKey: "date")
        try sample.setValue(NSNumber(value: true), forKey: "flag")
        try sample.setValue(NSNumber(value: 12), forKey: "small")
        try sample.setValue(NSNumber(value: 2.5), forKey: "real")
        try sample.setValue(NSNumber(value: 2), forKey: "single")
        try sample.setValue(NSDecimalNumber(string: "9.99"), forKey: "amount")
        try sample.setValue(NSUUID(uuidString: uuid.uuidString), forKey: "identifier")
        try sample.setValue(NSNull(), forKey: "optionalText")
        #expect(sample.text == "pear")
        #expect(sample.date == date)
        #expect(sample.flag)
        #expect(sample.small == 12)
        #expect(sample.real == 2.5)
        #expect(sample.single == 2)
        #expect(sample.amount == Decimal(string: "9.99"))
        #expect(sample.identifier == uuid)
        #expect(sample.optionalText == nil)
    }

    @Test func untypedNumbersTakeTheAttributesType() throws {
        let (_, context) = try makeContext(model: TestModels.samples)
        let sample = Sample(context: context)
        try sample.setValue(NSNumber(value: 1), forKey: "flag")
        #expect(sample.flag)
        try sample.setValue(NSNumber(value: false), forKey: "large")
        #expect(sample.large == 0)
        try sample.setValue(NSNumber(value: 3.0), forKey: "count")
        #expect(sample.count == 3)
        try sample.setValue(NSNumber(value: 4), forKey: "amount")
        #expect(sample.amount == 4)
    }

    @Test func numbersThatDoNotFitAreTypeMismatches() throws {
        let (_, context) = try makeContext(model: TestModels.samples)
        let sample = Sample(context: context)
        for (value, key) in [
            (NSNumber(value: 2.5), "count"), (NSNumber(value: 2), "flag"), (NSNumber(value: 70_000), "small"),
            (NSDecimalNumber(value: 70_000), "small"), (NSDecimalNumber(value: 2.5), "count"),
        ] {
            let error = #expect(throws: PersistenceError.self) { try sample.setValue(value, forKey: key) }
            #expect(error?.code == .typeMismatch)
            #expect(error?.key == key)
        }
        let error = #expect(throws: PersistenceError.self) { try sample.setValue(NSNumber(value: 1), forKey: "text") }
        #expect(error?.code == .typeMismatch)
    }

    @Test func toManyRelationshipTakesBridgedCollections() throws {
        let (_, context) = try makeContext()
        let basket = Basket(context: context)
        let apple = makeFruit(context, "apple")
        let pear = makeFruit(context, "pear")
        try basket.setValue(NSSet(array: [apple, pear]), forKey: "fruits")
        #expect(basket.fruits == [apple, pear])
        try basket.setValue(NSArray(array: [pear]), forKey: "fruits")
        #expect(basket.fruits == [pear])
        try basket.setValue(NSOrderedSet(array: [apple]), forKey: "fruits")
        #expect(basket.fruits == [apple])
        #expect(apple.basket === basket)
        #expect(pear.basket == nil)
        let error = #expect(throws: PersistenceError.self) {
            try basket.setValue(NSSet(array: [basket]), forKey: "fruits")
        }
        #expect(error?.code == .typeMismatch)
    }
}
