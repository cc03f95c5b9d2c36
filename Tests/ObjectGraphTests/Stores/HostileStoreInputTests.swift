import Foundation
import Testing

@testable import ObjectGraph

/// Small hostile store files that once cost gigabytes or minutes: each is a typed error, fast.
@Suite struct HostileStoreInputTests {
    /// A seeded store's snapshot, as its file holds it.
    static func seededSnapshot() throws -> StoreSnapshot {
        let url = FileStoreKind.json.makeURL()
        try seed(.json, at: url)
        return try StoreFileCodec.decodeJSONStore(Array(try Data(contentsOf: url)), url: url, model: TestModels.fruits)
    }

    /// The seeded snapshot with its fruit at key 1 moved to `key`, written into the tables
    /// directly (as a hostile file would describe it).
    static func snapshotWithFruit(at key: Int64) throws -> StoreSnapshot {
        var snapshot = try seededSnapshot()
        let index = try #require(TestModels.fruits.info(named: "Fruit")).index
        let row = try #require(snapshot.tables[index][1])
        snapshot.tables[index].set(nil, forKey: 1)
        snapshot.tables[index].set(row, forKey: key)
        // The basket's list of fruits names the moved fruit by its new key.
        let basket = try #require(TestModels.fruits.info(named: "Basket")).index
        let old = ObjectID(entityName: "Fruit", key: 1)
        let moved = ObjectID(entityName: "Fruit", key: key)
        var basketRow = try #require(snapshot.tables[basket][1])
        basketRow.values = basketRow.values.map { value in
            guard case .objects(let ids) = value else { return value }
            return .objects(ids.map { $0 == old ? moved : $0 })
        }
        snapshot.tables[basket].set(basketRow, forKey: 1)
        return snapshot
    }

    @Test(arguments: FileStoreKind.allCases)
    func keyFarBeyondTheRowsIsATypedErrorNotGigabytes(kind: FileStoreKind) throws {
        // 2^30 needs 2^21 chunk slots, twice the allowance: refused before any is allocated.
        let snapshot = try Self.snapshotWithFruit(at: 1 << 30)
        let url = kind.makeURL()
        let bytes =
            kind == .json
            ? StoreFileCodec.encodeJSONStore(snapshot, pretty: false) : StoreFileCodec.encodeBinaryStore(snapshot)
        let error = #expect(throws: PersistenceError.self) {
            if kind == .json {
                _ = try StoreFileCodec.decodeJSONStore(bytes, url: url, model: TestModels.fruits)
            } else {
                _ = try StoreFileCodec.replayBinaryStore(bytes, url: url, model: TestModels.fruits)
            }
        }
        #expect(error?.code == .corruptStore)
        #expect(error?.message.contains("sparser than the limit") == true)
    }

    @Test(arguments: FileStoreKind.allCases)
    func keyWithinTheAllowanceStillLoads(kind: FileStoreKind) throws {
        let snapshot = try Self.snapshotWithFruit(at: 1 << 28)
        let url = kind.makeURL()
        let loaded: StoreSnapshot
        if kind == .json {
            loaded = try StoreFileCodec.decodeJSONStore(
                StoreFileCodec.encodeJSONStore(snapshot, pretty: false), url: url, model: TestModels.fruits)
        } else {
            loaded = try StoreFileCodec.replayBinaryStore(
                StoreFileCodec.encodeBinaryStore(snapshot), url: url, model: TestModels.fruits
            ).snapshot
        }
        #expect(loaded.count == snapshot.count)
    }

    /// Filler after the log in which every fourth byte starts a plausible frame half a megabyte
    /// long: checksumming each candidate once took hours; the search is now bounded.
    @Test(.timeLimit(.minutes(1)))
    func damagedFrameFollowedByCraftedFillerIsFoundQuickly() throws {
        let url = FileStoreKind.binary.makeURL()
        try seed(.binary, at: url)
        var bytes = Array(try Data(contentsOf: url))
        for _ in 0..<(1 << 18) { bytes += [0x01, 0x00, 0x08, 0x00] }
        let clock = ContinuousClock()
        let start = clock.now
        let error = #expect(throws: PersistenceError.self) {
            _ = try StoreFileCodec.replayBinaryStore(bytes, url: url, model: TestModels.fruits)
        }
        #expect(error?.code == .corruptStore)
        #expect(clock.now - start < .seconds(5))
    }
}

extension HostileStoreInputTests {
    @Test(arguments: FileStoreKind.allCases)
    func toManyListingOneObjectTwiceIsCorrupt(kind: FileStoreKind) throws {
        var snapshot = try Self.seededSnapshot()
        let basket = try #require(TestModels.fruits.info(named: "Basket")).index
        var row = try #require(snapshot.tables[basket][1])
        row.values = row.values.map { value in
            guard case .objects(let ids) = value else { return value }
            return .objects(ids + Array(repeating: ids[0], count: 40))
        }
        snapshot.tables[basket].set(row, forKey: 1)
        let url = kind.makeURL()
        let error = #expect(throws: PersistenceError.self) {
            if kind == .json {
                _ = try StoreFileCodec.decodeJSONStore(
                    StoreFileCodec.encodeJSONStore(snapshot, pretty: true), url: url, model: TestModels.fruits)
            } else {
                _ = try StoreFileCodec.replayBinaryStore(
                    StoreFileCodec.encodeBinaryStore(snapshot), url: url, model: TestModels.fruits)
            }
        }
        #expect(error?.code == .corruptStore)
        #expect(error?.message.contains("Basket.fruits lists Fruit/") == true)
    }
}

/// Hostile predicate input: bounded by documented limits, each a typed error.
@Suite struct HostilePredicateInputTests {
    @Test func deeplyNestedArrayArgumentIsATypedErrorNotAStackOverflow() throws {
        // Building and freeing a 10,000-deep array recurses too: do it on a thread with a large
        // stack, so that only binding is measured against the test's own stack.
        let outcome = Locked<(code: PersistenceError.Code?, message: String)?>(nil)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            var nested: Any = 1
            for _ in 0..<10_000 { nested = [nested] }
            do {
                _ = try FetchPredicate(format: "price IN %@", nested)
                outcome.withLock { $0 = (nil, "bound") }
            } catch let error as PersistenceError {
                outcome.withLock { $0 = (error.code, error.message) }
            } catch {
                outcome.withLock { $0 = (nil, "\(error)") }
            }
            done.signal()
        }
        thread.stackSize = 256 << 20
        thread.start()
        done.wait()
        let result = try #require(outcome.withLock { $0 })
        #expect(result.code == .invalidPredicate)
        #expect(result.message.contains("more than 100 deep"))
        // Within the limit, nesting still binds.
        var shallow: Any = 1
        for _ in 0..<50 { shallow = [shallow] }
        _ = try FetchPredicate(format: "price IN %@", shallow)
    }

    @Test func formatStringPastTheLimitIsATypedError() throws {
        let long = "name == 'a'" + String(repeating: " OR name == 'a'", count: 20_000)
        let error = #expect(throws: PersistenceError.self) { _ = try FetchPredicate(format: long) }
        #expect(error?.code == .invalidPredicate)
        #expect(error?.message.contains("more than the limit of 262144") == true)
    }

    @Test func errorMessagesQuoteAtMostALimitedExcerpt() throws {
        let key = String(repeating: "k", count: 100_000)
        let (_, context) = try makeContext()
        let error = #expect(throws: PersistenceError.self) {
            _ = try context.fetch(FetchRequest<Fruit>(predicate: try FetchPredicate(format: "\(key) == 1")))
        }
        #expect((error?.message.count ?? .max) < 1_000)
        let syntax = #expect(throws: PersistenceError.self) {
            _ = try FetchPredicate(format: "name == '\(key)' AND")
        }
        #expect((syntax?.message.count ?? .max) < 1_000)
    }
}

extension HostileStoreInputTests {
    /// 20,000 attributes per entity took 14 s to compare name by name; by dictionary it is linear.
    @Test(.timeLimit(.minutes(1)))
    func schemaComparisonIsLinearInAttributes() throws {
        let attributes = (0..<20_000).map { AttributeDescription(name: "a\($0)", type: .integer64) }
        let stored = [
            EntityDescription(
                name: "Wide", attributes: attributes, relationships: [], uniquenessConstraints: [], objectClass: nil)
        ]
        var changed = attributes
        changed.removeLast()
        let model = [
            EntityDescription(
                name: "Wide", attributes: changed, relationships: [], uniquenessConstraints: [], objectClass: nil)
        ]
        let clock = ContinuousClock()
        let start = clock.now
        #expect(ManagedObjectModel.schemaDifferences(from: stored, to: stored).isEmpty)
        let differences = ManagedObjectModel.schemaDifferences(from: stored, to: model)
        #expect(differences == ["attribute 'Wide.a19999' is in the store but not in the model"])
        #expect(clock.now - start < .seconds(3))
    }

    @Test func modelMismatchMessageListsAtMostTenDifferences() {
        let differences = (0..<5_000).map { "attribute 'E.\(String(repeating: "x", count: 500))\($0)' differs" }
        let error = PersistenceError.modelMismatch(differences)
        #expect(error.message.count < 2_500)
        #expect(error.message.contains("and 4990 more"))
        #expect(error.detailedErrors.count == 5_000)
    }
}

extension HostilePredicateInputTests {
    /// `(a+)+$` against 30 characters backtracks about 2^30 times in `NSRegularExpression`, which
    /// has no time limit: such patterns are refused before they run, however they arrive.
    @Test(.timeLimit(.minutes(1)))
    func catastrophicMatchesPatternIsRefusedInTheFormatAnArgumentOrAVariable() throws {
        let (_, context) = try makeContext()
        makeFruit(context, String(repeating: "a", count: 30) + "!")
        try context.save()
        for pattern in ["(a+)+$", "(a*)*b", "(\\w+\\s?)*$", "(a{2,})+", "(x+x+)+y", "(a|b)\\1"] {
            let literal = #expect(throws: PersistenceError.self, "\(pattern)") {
                _ = try FetchPredicate(format: "name MATCHES '\(pattern.replacingOccurrences(of: "\\", with: "\\\\"))'")
            }
            #expect(literal?.code == .invalidPredicate)
            let argument = #expect(throws: PersistenceError.self, "\(pattern)") {
                _ = try FetchPredicate(format: "name MATCHES %@", pattern)
            }
            #expect(argument?.code == .invalidPredicate)
            let variable = #expect(throws: PersistenceError.self, "\(pattern)") {
                let predicate = try FetchPredicate(format: "name MATCHES $P").withSubstitutionVariables(["P": pattern])
                _ = try context.fetch(FetchRequest<Fruit>(predicate: predicate))
            }
            #expect(variable?.code == .invalidPredicate)
        }
    }

    @Test func ordinaryMatchesPatternsStillMatch() throws {
        let (_, context) = try makeContext()
        for name in ["cat@example.org", "catdogcat", "abab", "aa"] { makeFruit(context, name) }
        try context.save()
        for (pattern, expected) in [
            ("[a-z]+@[a-z]+\\.[a-z]{2,}", "cat@example.org"), ("(cat|dog)+", "catdogcat"), ("(ab)+", "abab"),
            ("a{2}", "aa"),
        ] {
            let fruits = try context.fetch(
                FetchRequest<Fruit>(predicate: try FetchPredicate(format: "name MATCHES %@", pattern)))
            #expect(fruits.map(\.name) == [expected], "\(pattern)")
        }
    }
}

extension HostilePredicateInputTests {
    /// 60 people, each the friend of every other.
    static func friendsContainer() throws -> (PersistentContainer, ManagedContext) {
        let person = EntityDescription(
            name: "Person",
            attributes: [AttributeDescription(name: "n", type: .integer64)],
            relationships: [
                RelationshipDescription(name: "friends", destination: "Person", inverse: "friends", isToMany: true)
            ])
        let model = try ManagedObjectModel(entities: [person])
        let container = try PersistentContainer(model: model, store: InMemoryStore())
        let context = container.newContext()
        let entity = try #require(model.entity(named: "Person"))
        var people: [ManagedObject] = []
        for index in 0..<60 {
            let object = ManagedObject(entity: entity, insertInto: context)
            try object.setValue(Int64(index), forKey: "n")
            people.append(object)
        }
        for object in people { try object.setValue(people.filter { $0 !== object }, forKey: "friends") }
        try context.save()
        return (container, context)
    }

    /// Four nested SUBQUERYs over 60 friends each would reach 60 × 59^4 (700 million) related
    /// objects: the fetch stops at its work budget with a typed error.
    @Test(.timeLimit(.minutes(2)))
    func nestedSubqueriesStopAtTheWorkBudget() throws {
        let (container, context) = try Self.friendsContainer()
        _ = container
        let format =
            "SUBQUERY(friends, $a, SUBQUERY($a.friends, $b, SUBQUERY($b.friends, $c, "
            + "SUBQUERY($c.friends, $d, $d.n == -1).@count > 0).@count > 0).@count > 0).@count > 0"
        let request = FetchRequest<ManagedObject>(entityName: "Person", predicate: try FetchPredicate(format: format))
        let error = #expect(throws: PersistenceError.self) { _ = try context.fetch(request) }
        #expect(error?.code == .invalidPredicate)
        #expect(error?.message.contains("too many related objects") == true)
        let counted = #expect(throws: PersistenceError.self) { _ = try context.count(for: request) }
        #expect(counted?.code == .invalidPredicate)
        // One level is well within it.
        let one = FetchRequest<ManagedObject>(
            entityName: "Person", predicate: try FetchPredicate(format: "SUBQUERY(friends, $a, $a.n == 0).@count > 0"))
        #expect(try context.fetch(one).count == 59)
    }

    /// 60 people, each the friend of every other: `friends.friends.friends.friends` once walked
    /// 60^4 paths per person (13 million); each hop now visits each person once.
    @Test(.timeLimit(.minutes(1)))
    func toManyKeyPathsVisitEachObjectOncePerHop() throws {
        let (container, context) = try Self.friendsContainer()
        _ = container
        let clock = ContinuousClock()
        let start = clock.now
        let none = try context.fetch(
            FetchRequest<ManagedObject>(
                entityName: "Person",
                predicate: try FetchPredicate(format: "ANY friends.friends.friends.friends.n == -1")))
        #expect(none.isEmpty)
        let all = try context.fetch(
            FetchRequest<ManagedObject>(
                entityName: "Person", predicate: try FetchPredicate(format: "ANY friends.friends.friends.n == 0")))
        #expect(all.count == 60)
        #expect(clock.now - start < .seconds(10))
    }
}

extension HostileStoreInputTests {
    @Test func damageReportsQuoteAtMostAnExcerptOfTheFile() throws {
        let url = FileStoreKind.json.makeURL()
        try seed(.json, at: url)
        var text = try String(contentsOf: url, encoding: .utf8)
        let key = String(repeating: "k", count: 100_000)
        text = text.replacingOccurrences(of: "\"price\":", with: "\"\(key)\":")
        let error = #expect(throws: PersistenceError.self) {
            _ = try StoreFileCodec.decodeJSONStore(Array(text.utf8), url: url, model: TestModels.fruits)
        }
        #expect(error?.code == .corruptStore)
        #expect((error?.message.count ?? .max) < 1_500)
    }
}
