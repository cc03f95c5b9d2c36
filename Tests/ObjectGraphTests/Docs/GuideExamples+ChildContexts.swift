import Foundation
import ObjectGraph
import ObjectGraphTesting
import Testing

// Concurrency example 4 begin
/// An edit sheet: the edits live in a child of the view context until Done pushes them into the
/// view context (which then saves them) or Cancel drops them.
@MainActor
func editRecipe(_ id: ObjectID, title: String, done: Bool, in container: PersistentContainer) throws {
    let viewContext = container.viewContext
    let sheet = viewContext.newChildContext(name: "edit sheet")
    guard let draft = try sheet.existingObject(with: id) as? Recipe else { return }
    draft.title = title
    if done {
        try sheet.save()  // the view context has the change now, unsaved
        try viewContext.save()  // and the store has it
    } else {
        sheet.rollback()  // or simply let the sheet go
    }
}
// Concurrency example 4 end

// Concurrency example 5 begin
/// A two-step wizard: each step edits in a grandchild of the view context; the wizard's own
/// context collects the steps, and only Finish reaches the store.
@MainActor
func addRecipeWithWizard(_ container: PersistentContainer) throws -> ObjectID {
    let wizard = container.viewContext.newChildContext(name: "wizard")
    // Keys the wizard changed win over changes the view context made since the wizard read them.
    wizard.mergePolicy = .mergeByPropertyObjectTrump
    let recipe = Recipe(context: wizard)
    recipe.title = "Pancakes"

    let step = wizard.newChildContext(name: "servings step")
    let draft = try step.existingObject(with: recipe.objectID) as? Recipe
    draft?.servings = 4
    try step.save()  // into the wizard

    try wizard.save()  // Finish: into the view context
    try container.viewContext.save()  // into the store
    return recipe.objectID
}
// Concurrency example 5 end

@Suite struct ChildContextGuideTests {
    @MainActor @Test func editSheetExampleSavesOnlyWhenDone() throws {
        let container = try PersistentContainer.forTesting(Recipe.self, Ingredient.self)
        let setup = container.newContext()
        let soup = Recipe(context: setup)
        soup.title = "Soup"
        try setup.save()
        try editRecipe(soup.objectID, title: "Cancelled", done: false, in: container)
        #expect(!container.viewContext.hasChanges)
        #expect(try container.newContext().fetch(Recipe.fetchRequest()).map(\.title) == ["Soup"])
        try editRecipe(soup.objectID, title: "Stew", done: true, in: container)
        #expect(!container.viewContext.hasChanges)
        #expect(try container.newContext().fetch(Recipe.fetchRequest()).map(\.title) == ["Stew"])
    }

    @MainActor @Test func wizardExampleReachesTheStore() throws {
        let container = try PersistentContainer.forTesting(Recipe.self, Ingredient.self)
        let id = try addRecipeWithWizard(container)
        let stored = try #require(try container.newContext().existingObject(with: id) as? Recipe)
        #expect(stored.title == "Pancakes" && stored.servings == 4)
    }
}
