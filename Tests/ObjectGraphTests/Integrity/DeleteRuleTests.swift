import Foundation
import ObjectGraph
import Testing

@Suite struct DeleteRuleTests {
    @Test func cascadeRunsThreeLevelsDeep() throws {
        let container = try makeIntegrityContainer()
        let context = container.newContext()
        let company = Company(context: context)
        for index in 0..<2 {
            let department = Department(context: context)
            department.company = company
            for teamIndex in 0..<3 {
                let team = Team(context: context)
                team.name = "team \(index).\(teamIndex)"
                team.department = department
                team.twin = Twin(context: context)
            }
        }
        try context.save()
        context.delete(company)
        #expect(context.deletedObjects.count == 1 + 2 + 6 + 6)
        try context.save()
        let fresh = container.newContext()
        for count in [
            try fresh.count(for: Company.fetchRequest()), try fresh.count(for: Department.fetchRequest()),
            try fresh.count(for: Team.fetchRequest()), try fresh.count(for: Twin.fetchRequest()),
        ] {
            #expect(count == 0)
        }
    }

    @Test func cascadeCycleTerminates() throws {
        let container = try makeIntegrityContainer()
        let context = container.newContext()
        let team = Team(context: context)
        let twin = Twin(context: context)
        team.twin = twin
        try context.save()
        context.delete(twin)
        #expect(team.isDeleted && twin.isDeleted)
        try context.save()
        #expect(try container.newContext().count(for: Team.fetchRequest()) == 0)
    }

    @Test func denyLeavesStoreOtherContextsAndPendingChangesUnchanged() throws {
        let (fruits, fruitContext) = try makeContext()
        let denying = Owner(context: fruitContext)
        let basket = Basket(context: fruitContext)
        denying.basket = basket
        basket.label = "kept"
        try fruitContext.save()
        let other = fruits.newContext()
        let otherBasket = try #require(try other.existingObject(with: basket.objectID) as? Basket)
        basket.label = "pending"
        fruitContext.delete(denying)
        let error = #expect(throws: PersistenceError.self) { try fruitContext.save() }
        #expect(error?.code == .validation)
        #expect(error?.objectID == denying.objectID && error?.key == "basket")
        #expect(denying.isDeleted && basket.label == "pending" && fruitContext.hasChanges)
        #expect(otherBasket.label == "kept")
        let fresh = fruits.newContext()
        #expect(try fresh.fetch(Basket.fetchRequest()).first?.label == "kept")
        #expect(try fresh.count(for: Owner.fetchRequest()) == 1)
    }

    @Test func nullifyKeepsOneToOneOneToManyAndManyToManyConsistent() throws {
        let container = try makeIntegrityContainer()
        let context = container.newContext()
        let ada = makePerson(context, "Ada", "Lovelace")
        let badge = Badge(context: context)
        let chess = Club(context: context)
        let rowing = Club(context: context)
        ada.badge = badge
        ada.clubs = [chess, rowing]
        try context.save()
        context.delete(ada)
        #expect(badge.holder == nil)
        #expect(chess.members.isEmpty && rowing.members.isEmpty)
        try context.save()
        let fresh = container.newContext()
        #expect(try fresh.fetch(Badge.fetchRequest()).first?.holder == nil)
        #expect(try fresh.fetch(Club.fetchRequest()).allSatisfy { $0.members.isEmpty })
    }

    @Test func orderedToManyKeepsOrderAndInverse() throws {
        let container = try makeIntegrityContainer()
        let context = container.newContext()
        let department = Department(context: context)
        let teams = (0..<4).map { index -> Team in
            let team = Team(context: context)
            team.name = "t\(index)"
            return team
        }
        department.teams = [teams[2], teams[0], teams[3]]
        #expect(teams[2].department === department && teams[1].department == nil)
        teams[1].department = department
        #expect(department.teams.map(\.name) == ["t2", "t0", "t3", "t1"])
        try context.save()
        let fresh = container.newContext()
        let stored = try #require(try fresh.existingObject(with: department.objectID) as? Department)
        #expect(stored.teams.map(\.name) == ["t2", "t0", "t3", "t1"])
        teams[0].department = nil
        #expect(department.teams.map(\.name) == ["t2", "t3", "t1"])
    }

    @Test func validateForDeleteRefusesTheDeletion() throws {
        let container = try makeIntegrityContainer()
        let context = container.newContext()
        let person = makePerson(context, "Grace", "Hopper")
        try context.save()
        person.refusesDeletion = true
        context.delete(person)
        let error = #expect(throws: PersistenceError.self) { try context.save() }
        #expect(error?.code == .validation && error?.objectID == person.objectID)
        #expect(try container.newContext().count(for: Person.fetchRequest()) == 1)
    }

    @Test func processPendingChangesHasAlreadyAppliedDeleteRules() throws {
        let container = try makeIntegrityContainer()
        let context = container.newContext()
        let company = Company(context: context)
        let department = Department(context: context)
        department.company = company
        try context.save()
        context.delete(company)
        context.processPendingChanges()
        #expect(department.isDeleted)
    }
}
