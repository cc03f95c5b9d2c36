import Foundation
import ObjectGraph
import Testing

@Suite struct RelationshipTests {
    // MARK: - Inverse maintenance

    @Test func settingToOneUpdatesToManyInverse() throws {
        let (_, context) = try makeContext()
        let kitchen = Basket(context: context)
        let cellar = Basket(context: context)
        let apple = makeFruit(context, "apple")
        apple.basket = kitchen
        #expect(kitchen.fruits == [apple])
        apple.basket = cellar
        #expect(kitchen.fruits.isEmpty && cellar.fruits == [apple])
        apple.basket = nil
        #expect(cellar.fruits.isEmpty)
    }

    @Test func settingToManyUpdatesToOneInverses() throws {
        let (_, context) = try makeContext()
        let kitchen = Basket(context: context)
        let cellar = Basket(context: context)
        let apple = makeFruit(context, "apple")
        let pear = makeFruit(context, "pear")
        kitchen.fruits = [apple, pear]
        #expect(apple.basket === kitchen && pear.basket === kitchen)
        cellar.fruits = [pear]
        #expect(pear.basket === cellar)
        #expect(kitchen.fruits == [apple])
        kitchen.fruits = []
        #expect(apple.basket == nil)
    }

    @Test func oneToOneStealsFromPreviousOwner() throws {
        let (_, context) = try makeContext()
        let ada = Owner(context: context)
        let bob = Owner(context: context)
        let basket = Basket(context: context)
        basket.owner = ada
        #expect(ada.basket === basket)
        bob.basket = basket
        #expect(basket.owner === bob)
        #expect(ada.basket == nil)
    }

    @Test func manyToManyKeepsBothSides() throws {
        let (_, context) = try makeContext()
        let apple = makeFruit(context, "apple")
        let pear = makeFruit(context, "pear")
        let sweet = Tag(context: context)
        let green = Tag(context: context)
        apple.tags = [sweet, green]
        pear.tags = [sweet]
        #expect(sweet.fruits == [apple, pear])
        #expect(green.fruits == [apple])
        sweet.fruits = [pear]
        #expect(apple.tags == [green])
        try context.save()
        #expect(!context.hasChanges)
    }

    @Test func relationshipsSurviveRelaunch() throws {
        let store = InMemoryStore()
        do {
            let container = try PersistentContainer(model: TestModels.fruits, store: store)
            let context = container.newContext()
            let basket = Basket(context: context)
            basket.label = "kitchen"
            makeFruit(context, "apple").basket = basket
            makeFruit(context, "pear").basket = basket
            try context.save()
        }
        let container = try PersistentContainer(model: TestModels.fruits, store: store)
        let context = container.newContext()
        let baskets = try context.fetch(Basket.fetchRequest())
        #expect(baskets.first?.fruits.map(\.name).sorted() == ["apple", "pear"])
        #expect(baskets.first?.fruits.first?.basket === baskets.first)
    }

    @Test func untypedRelationshipValuesAreChecked() throws {
        let (_, context) = try makeContext()
        let apple = makeFruit(context, "apple")
        let basket = Basket(context: context)
        try apple.setValue(basket, forKey: "basket")
        #expect(try basket.value(forKey: "fruits") as? Set<ManagedObject> == [apple])
        let error = #expect(throws: PersistenceError.self) {
            try apple.setValue(Tag(context: context), forKey: "basket")
        }
        #expect(error?.code == .typeMismatch)
        #expect(throws: PersistenceError.self) { try apple.setValue("kitchen", forKey: "basket") }
        try basket.setValue(Set<ManagedObject>(), forKey: "fruits")
        #expect(apple.basket == nil)
    }

    // MARK: - Delete rules

    @Test func nullifyRemovesDeletedObjectFromInverse() throws {
        let (_, context) = try makeContext()
        let basket = Basket(context: context)
        let apple = makeFruit(context, "apple")
        apple.basket = basket
        try context.save()
        context.delete(apple)
        #expect(basket.fruits.isEmpty)
        try context.save()
        #expect(basket.fruits.isEmpty && !context.hasChanges)
    }

    @Test func cascadeDeletesDestinations() throws {
        let (_, context) = try makeContext()
        let basket = Basket(context: context)
        makeFruit(context, "apple").basket = basket
        makeFruit(context, "pear").basket = basket
        try context.save()
        context.delete(basket)
        #expect(context.deletedObjects.count == 3)
        try context.save()
        #expect(try context.count(for: Fruit.fetchRequest()) == 0)
    }

    @Test func denyRefusesSaveWhileDestinationRemains() throws {
        let (_, context) = try makeContext()
        let owner = Owner(context: context)
        owner.basket = Basket(context: context)
        try context.save()
        context.delete(owner)
        let error = #expect(throws: PersistenceError.self) { try context.save() }
        #expect(error?.code == .validation)
        #expect(error?.key == "basket")
        #expect(owner.isDeleted)
        context.rollback()
        #expect(!owner.isDeleted && owner.basket != nil)
    }

    @Test func insertThenDeleteWithRelationshipLeavesNoChange() throws {
        let (_, context) = try makeContext()
        let basket = Basket(context: context)
        try context.save()
        let apple = makeFruit(context, "apple")
        apple.basket = basket
        context.delete(apple)
        #expect(!context.hasChanges)
        #expect(basket.fruits.isEmpty)
    }
}
