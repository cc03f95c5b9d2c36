import Foundation
import Testing

@testable import ObjectGraph

/// A controller under test beside an oracle controller that re-runs the fetch every round; each
/// report of the tested one is checked as it comes, and both against a fresh fetch after each step.
private final class Pair {
    let label: String
    let request: FetchRequest<Fruit>
    let keyPath: String?
    let tested: FetchedResultsController<Fruit>
    let oracle: FetchedResultsController<Fruit>
    var testedChanges: [FetchedResultsChanges] = []
    var oracleChanges: [FetchedResultsChanges] = []
    /// The results, their values and section names as of the last report.
    var last: [Fruit] = []
    var lastValues: [[StoreValue]] = []
    var lastSectionNames: [String] = []
    /// The step last checked, for messages.
    var step = "start"

    init(_ label: String, _ request: FetchRequest<Fruit>, keyPath: String? = nil, context: ManagedContext) throws {
        self.label = label
        self.request = request
        self.keyPath = keyPath
        tested = FetchedResultsController(fetchRequest: request, context: context, sectionNameKeyPath: keyPath)
        oracle = FetchedResultsController(fetchRequest: request, context: context, sectionNameKeyPath: keyPath)
        try tested.performFetch()
        try oracle.performFetch()
        oracle.stopTracking()
        oracle.tracking = nil
        tested.onChange = { [unowned self] changes in
            testedChanges.append(changes)
            checkApplying(changes)
            checkSections(changes)
            remember()
        }
        oracle.onChange = { [unowned self] in oracleChanges.append($0) }
        remember()
    }

    private func remember() {
        last = tested.fetchedObjects
        lastValues = last.map(\.values)
        lastSectionNames = (tested.sections ?? []).map(\.name)
    }

    /// Checks the last rounds: the results equal a fetch's, sections equal the runs of their
    /// names, and the same rounds reported the same deletes, inserts and section changes as the
    /// oracle.
    func check(_ context: ManagedContext, step: String) throws {
        let fetched = try context.fetch(request)
        let results = tested.fetchedObjects
        #expect(results.map(\.objectID) == fetched.map(\.objectID), "\(step): results")
        #expect(zip(results, fetched).allSatisfy { $0 === $1 }, "\(step): same instances")
        #expect(oracle.fetchedObjects.map(\.objectID) == fetched.map(\.objectID), "\(step): oracle")
        let sections = tested.sections ?? []
        let expected = FetchedResultsController<Fruit>.sections(of: fetched, keyPath: keyPath)
        #expect(sections.map(\.name) == expected.map(\.name), "\(step): section names")
        #expect(
            sections.map { $0.objects.map(\.objectID) } == expected.map { $0.objects.map(\.objectID) }, "\(step)")
        #expect(testedChanges.count == oracleChanges.count, "\(step): \(testedChanges) vs \(oracleChanges)")
        for (changes, oracleChange) in zip(testedChanges, oracleChanges) {
            #expect(changes.deleted == oracleChange.deleted, "\(step): deleted \(changes) vs \(oracleChange)")
            #expect(changes.inserted == oracleChange.inserted, "\(step): inserted \(changes) vs \(oracleChange)")
            #expect(changes.deletedSections == oracleChange.deletedSections, "\(step): deleted sections")
            #expect(changes.insertedSections == oracleChange.insertedSections, "\(step): inserted sections")
        }
        testedChanges.removeAll()
        oracleChanges.removeAll()
        self.step = step
    }

    /// Applies `changes` to the last results: deletes and moves out, moves and inserts in, the
    /// rest in old order; an object left in place is updated exactly when its values changed.
    private func checkApplying(_ changes: FetchedResultsChanges) {
        let step = "\(label), after \(self.step)"
        let new = tested.fetchedObjects
        var slots = [Fruit?](repeating: nil, count: new.count)
        let leaving = Set(changes.deleted + changes.moved.map(\.from))
        #expect(leaving.count == changes.deleted.count + changes.moved.count, "\(step): an index leaves twice")
        for move in changes.moved where move.to < slots.count { slots[move.to] = last[move.from] }
        for index in changes.inserted where index < slots.count {
            #expect(!last.contains { $0 === new[index] }, "\(step): inserted object was there")
            slots[index] = new[index]
        }
        var staying = last.indices.filter { !leaving.contains($0) }.makeIterator()
        for index in slots.indices where slots[index] == nil {
            guard let old = staying.next() else { break }
            slots[index] = last[old]
            let changed = last[old].values != lastValues[old]
            #expect(changed == changes.updated.contains(old), "\(step): update of old index \(old)")
        }
        #expect(staying.next() == nil, "\(step): objects left over")
        #expect(slots.map { $0?.objectID } == new.map(\.objectID), "\(step): applying \(changes)")
    }

    /// Section changes by name: old sections whose name is gone, new ones whose name is new.
    private func checkSections(_ changes: FetchedResultsChanges) {
        let step = "\(label), after \(self.step)"
        let names = (tested.sections ?? []).map(\.name)
        let old = Set(lastSectionNames)
        let new = Set(names)
        #expect(
            changes.deletedSections == lastSectionNames.indices.filter { !new.contains(lastSectionNames[$0]) },
            "\(step)")
        #expect(changes.insertedSections == names.indices.filter { !old.contains(names[$0]) }, "\(step)")
    }
}

@Suite struct FetchedResultsIncrementalTests {
    // MARK: - Against the full re-run

    /// Random rounds of inserts, deletes, edits of sort and section keys, batch updates, saves,
    /// rollbacks, undo, child saves, resets and other contexts' saves (merged or not): every
    /// controller's results, sections and changes match a fresh fetch and a controller that
    /// re-runs it.
    @Test(arguments: 0..<24)
    func randomRoundsMatchTheFullRerun(seed: Int) throws {
        var random = SeededGenerator(seed: UInt64(seed) &* 7919 &+ 17)
        let (container, context) = try makeContext()
        let labels = ["a", "b", "c"]
        var baskets: [Basket] = labels.map { label in
            let basket = Basket(context: context)
            basket.label = label
            return basket
        }
        let names = ["apple", "Banana", "cherry", "date", "elder", "fig", "grape"]
        func makeRandomFruit(_ context: ManagedContext, _ baskets: [Basket]) {
            let fruit = makeFruit(
                context, names.randomElement(using: &random)!, price: Int64.random(in: 0..<8, using: &random) * 10)
            fruit.basket = Bool.random(using: &random) ? baskets.randomElement(using: &random) : nil
        }
        for _ in 0..<12 { makeRandomFruit(context, baskets) }
        try context.save()
        context.automaticallyMergesChanges = seed % 2 == 0
        context.mergePolicy = .mergeByPropertyObjectTrump

        func request(
            _ sorts: [FetchSortDescriptor], _ predicate: String? = nil, limit: Int = 0, pending: Bool = true
        ) throws -> FetchRequest<Fruit> {
            var request = Fruit.fetchRequest()
            request.sortDescriptors = sorts
            request.predicate = try predicate.map { try FetchPredicate(format: $0) }
            request.fetchLimit = limit
            request.includesPendingChanges = pending
            return request
        }
        let byPrice = FetchSortDescriptor(key: "price")
        let pairs = [
            try Pair("price, name", request([byPrice, FetchSortDescriptor(key: "name")]), context: context),
            try Pair(
                "sections by price", request([FetchSortDescriptor(key: "price", ascending: false)], "price < 60"),
                keyPath: "price", context: context),
            try Pair("key order", request([], "price >= 20"), context: context),
            try Pair(
                "name [c], sections by name",
                request([FetchSortDescriptor(key: "name", comparison: .caseInsensitive)]), keyPath: "name",
                context: context),
            try Pair("sections by name, sorted by price", request([byPrice]), keyPath: "name", context: context),
            try Pair(
                "sections by basket",
                request([FetchSortDescriptor(key: "basket.label"), FetchSortDescriptor(key: "name")]),
                keyPath: "basket.label", context: context),
            try Pair("basket predicate", request([byPrice], "basket.label == 'a'"), context: context),
            try Pair("limit", request([byPrice], limit: 5), context: context),
            try Pair("committed only", request([FetchSortDescriptor(key: "name")], pending: false), context: context),
        ]
        var step = 0
        func round(_ what: String, _ body: () throws -> Void) throws {
            step += 1
            try body()
            // A save without real changes (values set to what they were) processes nothing.
            context.processPendingChanges()
            for pair in pairs { try pair.check(context, step: "\(pair.label): seed \(seed) step \(step) \(what)") }
        }
        /// Saves; a conflict with another context's unmerged delete is rolled back (a round too).
        func save(_ context: ManagedContext) throws {
            do {
                try context.save()
            } catch let error as PersistenceError where error.code == .conflict {
                context.rollback()
            }
        }
        func randomFruit(in context: ManagedContext) throws -> Fruit? {
            try context.fetch(Fruit.fetchRequest()).randomElement(using: &random)
        }
        func edit(in context: ManagedContext, baskets: [Basket]) throws {
            guard let fruit = try randomFruit(in: context) else { return makeRandomFruit(context, baskets) }
            switch Int.random(in: 0..<6, using: &random) {
            case 0: makeRandomFruit(context, baskets)
            case 1: context.delete(fruit)
            case 2: fruit.price = Int64.random(in: 0..<8, using: &random) * 10
            case 3: fruit.name = names.randomElement(using: &random)!
            case 4: fruit.basket = Bool.random(using: &random) ? baskets.randomElement(using: &random) : nil
            default: fruit.price += 1
            }
        }
        context.undoManager = ContextUndoManager()
        var roundsThatFetchWhole = 0
        for _ in 0..<48 {
            switch Int.random(in: 0..<13, using: &random) {
            case 0, 1:
                try round("edits + save") {
                    for _ in 0..<Int.random(in: 1...4, using: &random) { try edit(in: context, baskets: baskets) }
                    try save(context)
                }
            case 2:
                try round("edits + processPendingChanges") {
                    // Mostly a few edits a round; now and then more than the journal traces one by one.
                    let edits =
                        Int.random(in: 0..<10, using: &random) == 0 ? 300 : Int.random(in: 1...3, using: &random)
                    for _ in 0..<edits { try edit(in: context, baskets: baskets) }
                    context.processPendingChanges()
                }
            case 3:
                try round("rollback") {
                    try edit(in: context, baskets: baskets)
                    if Bool.random(using: &random) { context.processPendingChanges() }
                    context.rollback()
                }
            case 4:
                try round("other context saves") {
                    let other = container.newContext()
                    other.mergePolicy = .mergeByPropertyObjectTrump
                    let otherBaskets = try other.fetch(Basket.fetchRequest())
                    for _ in 0..<Int.random(in: 1...4, using: &random) { try edit(in: other, baskets: otherBaskets) }
                    try save(other)
                    context.processPendingChanges()
                }
            case 5:
                try round("basket renamed") {
                    baskets.randomElement(using: &random)!.label = labels.randomElement(using: &random)! + "'"
                    try save(context)
                }
            case 6:
                try round("batch update") {
                    let threshold = Int64.random(in: 0..<8, using: &random) * 10
                    _ = try context.execute(
                        BatchUpdateRequest(
                            entityName: "Fruit", predicate: try FetchPredicate(format: "price >= %d", threshold),
                            propertiesToUpdate: ["price": .int(threshold / 2)]))
                    context.processPendingChanges()
                }
            case 7:
                try round("refresh all") {
                    try edit(in: context, baskets: baskets)
                    context.processPendingChanges()
                    context.refreshAllObjects()
                    context.processPendingChanges()
                }
            case 8:
                try round("child saves") {
                    let child = context.newChildContext()
                    let childBaskets = try child.fetch(Basket.fetchRequest())
                    // Mostly a few edits a round; now and then more than the journal traces one by one.
                    let edits =
                        Int.random(in: 0..<10, using: &random) == 0 ? 300 : Int.random(in: 1...3, using: &random)
                    for _ in 0..<edits { try edit(in: child, baskets: childBaskets) }
                    try child.save()
                }
            case 9:
                try round("undo") {
                    try edit(in: context, baskets: baskets)
                    context.processPendingChanges()
                    context.undoManager?.undo()
                    context.processPendingChanges()
                }
            case 10:
                guard Int.random(in: 0..<4, using: &random) == 0 else { continue }
                roundsThatFetchWhole += 1
                try round("reset") {
                    if Bool.random(using: &random) { try edit(in: context, baskets: baskets) }
                    context.reset()
                }
            case 11:
                guard Int.random(in: 0..<6, using: &random) == 0 else { continue }
                roundsThatFetchWhole += 1
                try round("delete all") {
                    try save(context)
                    _ = try context.deleteAll(Fruit.self)
                    context.processPendingChanges()
                    for _ in 0..<6 { makeRandomFruit(context, baskets) }
                    try save(context)
                }
            default:
                try round("many edits + save") {
                    for _ in 0..<Int.random(in: 5...12, using: &random) { try edit(in: context, baskets: baskets) }
                    try save(context)
                }
            }
            baskets = try context.fetch(Basket.fetchRequest())
        }
        // Requests whose plan reads no other entity fetch whole only after a reset or a delete
        // of every fruit; a fetch limit has no plan.
        for pair in pairs where pair.tested.tracking?.plan.dependencies.isEmpty == true {
            #expect(pair.tested.roundsFetchedWhole <= roundsThatFetchWhole, "\(pair.label)")
        }
        #expect(pairs.filter { $0.tested.tracking == nil }.map(\.label) == ["limit"])
    }

    // MARK: - Which rounds fetch again

    /// A controller of fruits priced 10, 20, 30 and 40, sorted by price, with what it reported.
    private func controller(
        predicate: String? = nil, sort: String = "price", limit: Int = 0
    ) throws -> (ManagedContext, FetchedResultsController<Fruit>, PersistentContainer) {
        let (container, context) = try makeContext()
        for (offset, price) in [10, 20, 30, 40].enumerated() { makeFruit(context, "F\(offset)", price: Int64(price)) }
        try context.save()
        var request = Fruit.fetchRequest()
        request.predicate = try predicate.map { try FetchPredicate(format: $0) }
        request.sortDescriptors = [FetchSortDescriptor(key: sort)]
        request.fetchLimit = limit
        let controller = FetchedResultsController(fetchRequest: request, context: context)
        try controller.performFetch()
        return (context, controller, container)
    }

    @Test func aChangedObjectIsPlacedWithoutFetchingAgain() throws {
        let (context, controller, _) = try controller(predicate: "price < 100")
        var reported: [FetchedResultsChanges] = []
        controller.onChange = { reported.append($0) }
        controller.fetchedObjects[0].price = 35
        makeFruit(context, "New", price: 15)
        controller.fetchedObjects[3].price = 500  // leaves the predicate
        try context.save()
        #expect(controller.fetchedObjects.map(\.price) == [15, 20, 30, 35])
        #expect(reported == [FetchedResultsChanges(deleted: [3], inserted: [0], moved: [.init(from: 0, to: 3)])])
        #expect(controller.roundsFetchedWhole == 0)
    }

    @Test func anotherContextsUnmergedSaveIsSeenInTheNextRound() throws {
        let (context, controller, container) = try controller()
        let other = container.newContext()
        makeFruit(other, "Other", price: 25)
        try other.save()
        #expect(controller.fetchedObjects.count == 4)  // no round yet
        context.processPendingChanges()
        #expect(controller.fetchedObjects.map(\.name) == ["F0", "F1", "Other", "F2", "F3"])
        #expect(controller.roundsFetchedWhole == 0)
    }

    @Test func aChangeToARelatedObjectFetchesAgain() throws {
        let (context, controller, _) = try controller(predicate: "basket.label == 'a'")
        #expect(controller.fetchedObjects.isEmpty)
        let basket = Basket(context: context)
        basket.label = "b"
        for fruit in try context.fetch(Fruit.fetchRequest()) { fruit.basket = basket }
        try context.save()
        #expect(controller.fetchedObjects.isEmpty)
        let before = controller.roundsFetchedWhole
        basket.label = "a"  // every fruit now matches, though none changed
        try context.save()
        #expect(controller.fetchedObjects.map(\.name) == ["F0", "F1", "F2", "F3"])
        #expect(controller.roundsFetchedWhole == before + 1)
    }

    @Test func aFetchLimitOrAKeyPathBackToTheEntityFetchesAgainEveryRound() throws {
        let (context, limited, _) = try controller(limit: 2)
        #expect(limited.tracking == nil)
        makeFruit(context, "Cheapest", price: 1)
        try context.save()
        #expect(limited.fetchedObjects.map(\.name) == ["Cheapest", "F0"])
        #expect(limited.roundsFetchedWhole == 1)
        var request = Fruit.fetchRequest()
        request.predicate = try FetchPredicate(format: "ANY basket.fruits.price > 30")
        let cyclic = FetchedResultsController(fetchRequest: request, context: context)
        try cyclic.performFetch()
        #expect(cyclic.tracking == nil)
    }

    // MARK: - Section runs

    /// Random inserts and removes of names keep the runs equal to those made from scratch, and a
    /// round's section changes name exactly the runs whose names came or went.
    @Test(arguments: 0..<8)
    func sectionRunsFollowRandomEdits(seed: Int) {
        var random = SeededGenerator(seed: UInt64(seed) &+ 99)
        var names = (0..<20).map { _ in ["a", "b", "c", "d"].randomElement(using: &random)! }
        var runs = FetchedResultsSectionRuns(names)
        for _ in 0..<200 {
            let oldRuns = FetchedResultsSectionRuns(names)
            runs.beginRound()
            // Mostly a few edits a round; now and then more than the journal traces one by one.
            let edits = Int.random(in: 0..<10, using: &random) == 0 ? 300 : Int.random(in: 1...3, using: &random)
            for _ in 0..<edits {
                if Bool.random(using: &random), !names.isEmpty {
                    let position = Int.random(in: 0..<names.count, using: &random)
                    names.remove(at: position)
                    runs.remove(at: position)
                } else {
                    let position = Int.random(in: 0...names.count, using: &random)
                    let name = ["a", "b", "c", "d", "e"].randomElement(using: &random)!
                    names.insert(name, at: position)
                    runs.insert(name, at: position)
                }
            }
            let changes = runs.endRound()
            let made = FetchedResultsSectionRuns(names)
            #expect(runs.names == made.names)
            #expect(runs.starts == made.starts)
            #expect(runs.count == names.count)
            #expect(changes.deleted == oldRuns.names.indices.filter { !made.names.contains(oldRuns.names[$0]) })
            #expect(changes.inserted == made.names.indices.filter { !oldRuns.names.contains(made.names[$0]) })
        }
    }
}
