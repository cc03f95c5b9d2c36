import Foundation
import ObjectGraph
import Testing

@Suite struct AttributeValueTests {
    /// The stores that keep data across a relaunch.
    static let persistentStores: [StoreKind] =
        [.inMemory, .jsonFile, .binaryFile, .sqlite] + StoreKind.postgresIfConfigured

    /// Saves `configure`d values through one container and reads them back in another one on the
    /// same store: a relaunch.
    private func roundTrip(
        _ kind: StoreKind = .inMemory, _ configure: (Sample) -> Void, check: (Sample) throws -> Void
    ) throws {
        let store = kind.makeStore()
        do {
            let container = try PersistentContainer(model: TestModels.samples, store: store)
            let context = container.newContext()
            let sample = Sample(context: context)
            sample.required = "set"
            configure(sample)
            try check(sample)
            try context.save()
        }
        let container = try PersistentContainer(model: TestModels.samples, store: store)
        let fetched = try container.newContext().fetch(Sample.fetchRequest())
        try check(try #require(fetched.first))
    }

    @Test(arguments: persistentStores)
    func defaultsApplyToNewObjects(kind: StoreKind) throws {
        try roundTrip(kind, { _ in }) { sample in
            #expect(sample.text == "default")
            #expect(sample.flag == false && sample.count == 0 && sample.real == 0)
            #expect(sample.ripeness == .green && sample.grade == .low)
            #expect(sample.optionalText == nil && sample.optionalNumber == nil && sample.optionalOrigin == nil)
        }
    }

    @Test(arguments: persistentStores)
    func everyTypeRoundTripsExactly(kind: StoreKind) throws {
        let uuid = UUID()
        let date = Date(timeIntervalSinceReferenceDate: 123_456_789.123_456_7)
        let origin = Origin(country: "日本", farms: ["a", "b"], rating: .infinity)
        try roundTrip(
            kind,
            { sample in
                sample.text = "りんご 🍎 \u{0}tail"
                sample.flag = true
                sample.small = .min
                sample.medium = .max
                sample.large = .min
                sample.count = .max
                sample.single = .greatestFiniteMagnitude
                sample.real = -.infinity
                sample.amount = Decimal(string: "12345678901234567890.123456789")!
                sample.date = date
                sample.blob = Data((0...255).map { UInt8($0) })
                sample.identifier = uuid
                sample.link = URL(string: "file:///tmp/a%20b?q=1#frag")!
                sample.ripeness = .overripe
                sample.grade = .high
                sample.origin = origin
                sample.optionalText = ""
                sample.optionalNumber = 0
                sample.optionalDate = date
                sample.optionalOrigin = origin
                sample.optionalRipeness = .ripe
            }
        ) { sample in
            #expect(sample.text == "りんご 🍎 \u{0}tail")
            #expect(sample.flag)
            #expect(sample.small == .min && sample.medium == .max && sample.large == .min && sample.count == .max)
            #expect(sample.single == .greatestFiniteMagnitude && sample.real == -.infinity)
            #expect(sample.amount == Decimal(string: "12345678901234567890.123456789")!)
            #expect(sample.date == date && sample.optionalDate == date)
            #expect(sample.blob == Data((0...255).map { UInt8($0) }))
            #expect(sample.identifier == uuid)
            #expect(sample.link == URL(string: "file:///tmp/a%20b?q=1#frag")!)
            #expect(sample.ripeness == .overripe && sample.grade == .high && sample.optionalRipeness == .ripe)
            #expect(sample.origin == origin && sample.optionalOrigin == origin)
            #expect(sample.optionalText == "" && sample.optionalNumber == 0)
        }
    }

    @Test(arguments: persistentStores)
    func extremesRoundTrip(kind: StoreKind) throws {
        try roundTrip(
            kind,
            { sample in
                sample.large = .max
                sample.count = .min
                sample.real = .nan
                sample.single = -.infinity
                sample.date = Date(timeIntervalSinceReferenceDate: -.greatestFiniteMagnitude)
                sample.optionalDate = Date(timeIntervalSinceReferenceDate: 0.000_000_001)
                sample.text = "\u{0}\u{1F}\"\\\n\t/\u{2028}\u{FEFF}👩‍👩‍👧‍👦"
                sample.amount = Decimal(string: "-0.000000000000000000000000000000000001")!
                sample.blob = Data()
                sample.link = URL(string: "urn:isbn:0451450523")!
            }
        ) { sample in
            #expect(sample.large == .max && sample.count == .min)
            #expect(sample.real.isNaN && sample.single == -.infinity)
            #expect(sample.date.timeIntervalSinceReferenceDate == -.greatestFiniteMagnitude)
            #expect(sample.optionalDate?.timeIntervalSinceReferenceDate == 0.000_000_001)
            #expect(sample.text == "\u{0}\u{1F}\"\\\n\t/\u{2028}\u{FEFF}👩‍👩‍👧‍👦")
            #expect(sample.amount == Decimal(string: "-0.000000000000000000000000000000000001")!)
            #expect(sample.blob.isEmpty)
            #expect(sample.link == URL(string: "urn:isbn:0451450523")!)
        }
    }

    @Test func nanIsStoredAndSettingItAgainIsNoChange() throws {
        let (_, context) = try makeContext(model: TestModels.samples)
        let sample = Sample(context: context)
        sample.required = "x"
        sample.real = .nan
        try context.save()
        #expect(sample.real.isNaN)
        sample.real = .nan
        #expect(!context.hasChanges)
    }

    @Test(arguments: persistentStores)
    func optionalsCanBeSetBackToNil(kind: StoreKind) throws {
        try roundTrip(
            kind,
            { sample in
                sample.optionalText = "x"
                sample.optionalText = nil
                sample.optionalOrigin = Origin(country: "x", farms: [], rating: 1)
                sample.optionalOrigin = nil
            }
        ) { sample in
            #expect(sample.optionalText == nil)
            #expect(sample.optionalOrigin == nil)
        }
    }

    @Test(arguments: persistentStores)
    func hugeValuesRoundTrip(kind: StoreKind) throws {
        let big = String(repeating: "é🍎", count: 500_000)
        let blob = Data(repeating: 0xAB, count: 8 << 20)
        try roundTrip(
            kind,
            { sample in
                sample.text = big
                sample.blob = blob
            }
        ) { sample in
            #expect(sample.text == big)
            #expect(sample.blob == blob)
        }
    }

    // MARK: - Untyped access

    @Test func untypedValuesUseTheAttributeTypes() throws {
        let (_, context) = try makeContext(model: TestModels.samples)
        let sample = Sample(context: context)
        sample.small = 7
        sample.medium = 8
        sample.large = 9
        #expect(try sample.value(forKey: "small") as? Int16 == 7)
        #expect(try sample.value(forKey: "medium") as? Int32 == 8)
        #expect(try sample.value(forKey: "large") as? Int64 == 9)
        #expect(try sample.value(forKey: "text") as? String == "default")
        #expect(try sample.value(forKey: "optionalText") == nil)
        #expect(try sample.value(forKey: "ripeness") as? String == "green")
    }

    @Test func setValueConvertsCompatibleValues() throws {
        let (_, context) = try makeContext(model: TestModels.samples)
        let sample = Sample(context: context)
        try sample.setValue(12, forKey: "small")
        try sample.setValue(UInt8(3), forKey: "large")
        try sample.setValue(2, forKey: "real")
        try sample.setValue(Float(1.5), forKey: "real")
        try sample.setValue(Ripeness.ripe, forKey: "ripeness")
        try sample.setValue(Origin(country: "fr", farms: [], rating: 2), forKey: "origin")
        let none: String? = nil
        try sample.setValue(none, forKey: "optionalText")
        try sample.setValue(Optional(Optional("deep")) as Any, forKey: "optionalText")
        #expect(sample.small == 12 && sample.large == 3 && sample.real == 1.5)
        #expect(sample.ripeness == .ripe)
        #expect(sample.origin.country == "fr")
        #expect(sample.optionalText == "deep")
    }

    @Test func setValueRejectsWrongTypesAndChangesNothing() throws {
        let (_, context) = try makeContext(model: TestModels.samples)
        let sample = Sample(context: context)
        sample.required = "r"
        try context.save()
        let cases: [(Any?, String)] = [
            ("text", "small"), (70_000, "small"), (Int64.max, "medium"), (1.5, "large"), (42, "text"),
            ("yes", "flag"), (Date(), "identifier"), (UInt64.max, "large"),
        ]
        for (value, key) in cases {
            let error = #expect(throws: PersistenceError.self) { try sample.setValue(value, forKey: key) }
            #expect(error?.code == .typeMismatch)
            #expect(error?.key == key)
            #expect(error?.entityName == "Sample")
        }
        #expect(!context.hasChanges)
    }

    @Test func unknownKeysAreTypedErrors() throws {
        let (_, context) = try makeContext()
        let fruit = makeFruit(context, "apple")
        let readError = #expect(throws: PersistenceError.self) { try fruit.value(forKey: "colour") }
        #expect(readError?.code == .unknownKey)
        #expect(readError?.message.contains("'Fruit' has no attribute or relationship named 'colour'") == true)
        let writeError = #expect(throws: PersistenceError.self) { try fruit.setValue("red", forKey: "colour") }
        #expect(writeError?.code == .unknownKey)
        #expect(writeError?.objectID == fruit.objectID)
    }
}

@Suite struct DecimalNaNTests {
    @Test(arguments: [StoreKind.inMemory, .jsonFile, .binaryFile, .sqlite])
    func decimalNaNRoundTripsAndSettingItAgainIsNoChange(kind: StoreKind) throws {
        let store = kind.makeStore()
        do {
            let container = try PersistentContainer(model: TestModels.samples, store: store)
            let context = container.newContext()
            let sample = Sample(context: context)
            sample.required = "r"
            sample.amount = .nan
            try context.save()
            sample.amount = .nan
            #expect(!context.hasChanges)
        }
        let container = try PersistentContainer(model: TestModels.samples, store: store)
        let context = container.newContext()
        #expect(try context.fetch(Sample.fetchRequest()).first?.amount.isNaN == true)
    }
}
