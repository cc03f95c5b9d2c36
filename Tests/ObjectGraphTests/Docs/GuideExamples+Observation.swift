import Foundation
import ObjectGraph
import ObjectGraphTesting
import Observation
import Testing

// Observation example 1 begin
/// Reads the recipe's title and calls `onChange` once, when the title next changes in the
/// recipe's context (by an edit, a rollback, a merged save of another context, an undo...).
func observeTitle(of recipe: Recipe, onChange: @escaping @Sendable () -> Void) -> String {
    withObservationTracking {
        recipe.title  // registers `title` only: a change of `servings` does not call onChange
    } onChange: {
        onChange()
    }
}
// Observation example 1 end

// Observation example 2 begin
/// Keeps a list of recipes sorted by title, and says what each save changed in it.
@MainActor
func recipeListChanges(_ container: PersistentContainer) throws -> [FetchedResultsChanges] {
    let context = container.viewContext
    var request = Recipe.fetchRequest()
    request.sortDescriptors = [SortDescriptor(key: "title")]
    let controller = FetchedResultsController(fetchRequest: request, context: context)
    try controller.performFetch()  // controller.fetchedObjects: the recipes, by title

    var reported: [FetchedResultsChanges] = []
    controller.onChange = { changes in reported.append(changes) }  // or: for await … in controller.changes

    let stew = Recipe(context: context)
    stew.title = "Stew"
    let soup = Recipe(context: context)
    soup.title = "Soup"
    try context.save()  // inserted: [0, 1] (Soup, Stew)

    soup.title = "Zucchini soup"
    try context.save()  // moved: 0 → 1 (a sort key changed)

    stew.servings = 8
    context.processPendingChanges()  // unsaved edits count too: updated: [0]
    return reported
}
// Observation example 2 end

// Observation example 3 begin
/// Edits a recipe with undo on: both edits form one group, undone and redone together.
func editWithUndo(_ recipe: Recipe, in context: ManagedContext) throws {
    context.undoManager = ContextUndoManager()  // nil (off) by default
    recipe.title = "Stew"
    recipe.servings = 6
    context.processPendingChanges()  // ends the group (so does a save)

    context.undoManager?.undo()  // the old title and servings are back
    context.undoManager?.redo()  // "Stew" for 6 again
    try context.save()
    context.undoManager?.undo()  // undo after a save: the context has changes again
}
// Observation example 3 end

@Suite struct ObservationGuideTests {
    @Test func observeTitleCallsBackOnceOnATitleChange() throws {
        let container = try PersistentContainer.forTesting(Recipe.self, Ingredient.self)
        let context = container.newContext()
        let recipe = Recipe(context: context)
        recipe.title = "Soup"
        let counter = ChangeCounter()
        #expect(observeTitle(of: recipe) { counter.increment() } == "Soup")
        recipe.servings = 3
        #expect(counter.value == 0)
        recipe.title = "Stew"
        recipe.title = "Broth"
        #expect(counter.value == 1)
    }

    @MainActor @Test func recipeListReportsInsertsMovesAndUpdates() throws {
        let container = try PersistentContainer.forTesting(Recipe.self, Ingredient.self)
        #expect(
            try recipeListChanges(container) == [
                FetchedResultsChanges(inserted: [0, 1]), FetchedResultsChanges(moved: [.init(from: 0, to: 1)]),
                FetchedResultsChanges(updated: [0]),
            ])
    }

    @Test func editWithUndoLeavesTheUndoneStateUnsaved() throws {
        let container = try PersistentContainer.forTesting(Recipe.self, Ingredient.self)
        let context = container.newContext()
        let recipe = Recipe(context: context)
        recipe.title = "Soup"
        recipe.servings = 2
        try context.save()
        try editWithUndo(recipe, in: context)
        #expect(recipe.title == "Soup" && recipe.servings == 2)
        #expect(context.hasChanges)
        #expect(context.undoManager?.canRedo == true)
        let saved = try container.newContext().fetch(Recipe.fetchRequest())
        #expect(saved.map(\.title) == ["Stew"])
    }
}
