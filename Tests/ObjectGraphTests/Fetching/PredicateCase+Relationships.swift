import Foundation
import ObjectGraph

extension PredicateCase {
    // MARK: - Relationships, aggregates, subqueries

    static let relationships: [PredicateCase] = toOne + toMany + dynamic

    static let toOne: [PredicateCase] = [
        PredicateCase("shelf.title == 'Top'", ["apple", "Apple Pie"]),
        PredicateCase("shelf.shop.city == %@", args: ["Berlin"], ["banana", "Ärger"]),
        PredicateCase("shelf == nil", noShelf),
        PredicateCase("shelf != nil", ["apple", "Apple Pie", "banana", "Ärger", "りんご"]),
        // A nil anywhere along a to-one key path makes the value nil.
        PredicateCase(
            "shelf.shop == nil",
            ["café", "CAFE", "りんご", "", "max", "min", "nan", "straße", "e\u{301}clair", "emoji 🍎"]),
        PredicateCase("shelf.floor > 0", ["apple", "Apple Pie", "りんご"]),
        PredicateCase("shelf == %@", { [$0.shelf("Top")] }, ["apple", "Apple Pie"]),
        PredicateCase("shelf == %@", { [$0.shelf("Top").objectID] }, ["apple", "Apple Pie"]),
        PredicateCase("%@ == shelf", { [$0.shelf("Top")] }, ["apple", "Apple Pie"]),
        PredicateCase("shelf IN %@", { [[$0.shelf("Top"), $0.shelf("Side")]] }, ["apple", "Apple Pie", "りんご"]),
        PredicateCase("shelf IN %@", { [Set([$0.shelf("Bottom")])] }, ["banana", "Ärger"]),
        PredicateCase("shelf.title BEGINSWITH[c] 'b'", ["banana", "Ärger"]),
        PredicateCase("SELF == %@", { [$0.product("banana")] }, ["banana"]),
        PredicateCase("SELF IN %@", { [[$0.product("apple"), $0.product("banana")]] }, ["apple", "banana"]),
        PredicateCase("SELF != %@", { [$0.product("apple")] }, except("apple")),
    ]

    static let toMany: [PredicateCase] = [
        PredicateCase("ANY labels.text == 'fruit'", ["apple", "banana"]),
        // "ANY, SOME: Specifies any of the elements in the following expression."
        PredicateCase("SOME labels.text == 'fruit'", ["apple", "banana"]),
        // Core Data's SQL store treats a to-many key path without a modifier as ANY.
        PredicateCase("labels.text == 'fruit'", ["apple", "banana"]),
        // ALL is true for an empty collection.
        PredicateCase("ALL labels.text == 'fruit'", noLabels),
        // "NONE … is logically equivalent to NOT (ANY …)."
        PredicateCase("NONE labels.text == 'fruit'", except("apple", "banana")),
        PredicateCase("labels.@count == 0", noLabels),
        PredicateCase("labels.@count > 1", ["apple", "banana"]),
        PredicateCase("labels.@count == 1", ["Apple Pie", "CAFE", "りんご"]),
        PredicateCase("labels.@count == %d", args: [2], ["apple", "banana"]),
        PredicateCase("labels.@sum.rank > 2", ["apple", "Apple Pie", "banana", "CAFE"]),
        PredicateCase("labels.@sum.rank == 0", noLabels),
        PredicateCase("labels.@max.rank == 4", ["banana"]),
        PredicateCase("labels.@min.rank == 1", ["apple", "りんご"]),
        PredicateCase("labels.@avg.rank == 1.5", ["apple"]),
        PredicateCase("labels.@max.text == 'sweet'", ["Apple Pie", "CAFE"]),
        PredicateCase("labels.rank.@sum == 6", ["banana"]),
        PredicateCase("%@ IN labels", { [$0.label("fruit")] }, ["apple", "banana"]),
        PredicateCase("labels CONTAINS %@", { [$0.label("red")] }, ["apple", "りんご"]),
        PredicateCase("ANY labels == %@", { [$0.label("sweet")] }, ["Apple Pie", "CAFE"]),
        PredicateCase("'yellow' IN labels.text", ["banana"]),
        PredicateCase("ANY labels.text IN {'red', 'yellow'}", ["apple", "banana", "りんご"]),
        PredicateCase("ANY labels.text BEGINSWITH 's'", ["Apple Pie", "CAFE"]),
        PredicateCase("ANY labels.text LIKE[c] '*E*'", ["apple", "Apple Pie", "banana", "CAFE", "りんご"]),
        PredicateCase(
            "ALL labels.rank < 3",
            ["apple", "Ärger", "café", "りんご", "", "max", "min", "nan", "straße", "e\u{301}clair", "emoji 🍎"]),
        PredicateCase("ANY labels.rank BETWEEN {3, 4}", ["Apple Pie", "banana", "CAFE"]),
        PredicateCase("SUBQUERY(labels, $l, $l.rank > 1).@count > 0", ["apple", "Apple Pie", "banana", "CAFE"]),
        PredicateCase("SUBQUERY(labels, $l, $l.text == 'fruit' AND $l.rank == 2).@count == 1", ["apple", "banana"]),
        PredicateCase("SUBQUERY(labels, $l, $l.text BEGINSWITH[c] 'R').@count > 0 AND price > 100", ["りんご"]),
        PredicateCase(
            "SUBQUERY(labels, $l, $l.products.@count > 1).@count > 0",
            ["apple", "Apple Pie", "banana", "CAFE", "りんご"]),
        PredicateCase(
            "SUBQUERY(labels, $l, SUBQUERY($l.products, $p, $p.price > 200).@count > 0).@count > 0",
            ["Apple Pie", "CAFE"]),
        // Key paths without the variable refer to the fetched object.
        PredicateCase("SUBQUERY(labels, $l, $l.rank > 1 AND price > 100).@count > 0", ["Apple Pie", "CAFE"]),
        PredicateCase("SUBQUERY(labels, $l, $l == %@).@count == 1", { [$0.label("yellow")] }, ["banana"]),
        PredicateCase("shelf.products.@count > 1", ["apple", "Apple Pie", "banana", "Ärger"]),
        PredicateCase("ANY shelf.products.name == 'banana'", ["banana", "Ärger"]),
        PredicateCase("ANY shelf.shop.shelves.title == 'Top'", ["apple", "Apple Pie"]),
    ]

    static let dynamic: [PredicateCase] = [
        PredicateCase("labels.@count > shelf.products.@count", ["CAFE"]),
        PredicateCase("price > shelf.floor", ["apple", "Apple Pie", "banana", "Ärger", "りんご"]),
        PredicateCase("name == note", ["CAFE"]),
        PredicateCase("note BEGINSWITH[cd] name", ["café", "CAFE", "straße"]),
        PredicateCase("price BETWEEN {small, 100}", ["apple", "banana", "", "emoji 🍎"]),
        PredicateCase("price IN {small, 150}", ["café", "CAFE", ""]),
        PredicateCase("optionalPrice == price", ["りんご"]),
        PredicateCase("optionalPrice != price", except("りんご")),
    ]
}
