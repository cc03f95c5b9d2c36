import Foundation

/// Cases of string length, arithmetic, bitwise operators, functions of `NSExpression`,
/// `TERNARY`, index expressions, composed `%K` key paths and the `[n]`/`[l]` options. Each runs
/// through every path of the table: saved objects and count, unsaved inserts, a fresh context,
/// printing and parsing back, and encoding.
extension PredicateCase {
    static let computed: [PredicateCase] =
        length + arithmetic + bitwise + functions + conditionalsAndIndexes
        + composedKeyPaths + options

    /// `NSString.length`: UTF-16 code units ("emoji 🍎" is 8, "e\u{301}clair" is 7).
    static let length: [PredicateCase] = [
        PredicateCase("name.length == 5", ["apple", "Ärger"]),
        PredicateCase("name.length > 6", ["Apple Pie", "e\u{301}clair", "emoji 🍎"]),
        PredicateCase("name.length == 0", [""]),
        PredicateCase("%K.length == 3", args: ["name"], ["りんご", "max", "min", "nan"]),
        PredicateCase("length:(name) == 3", ["りんご", "max", "min", "nan"]),
        PredicateCase("random:(labels.rank) == 3", ["Apple Pie", "CAFE"]),
        PredicateCase("SELF.name.length == 4", ["café", "CAFE"]),
        // A nil string has no length: the comparison is false.
        PredicateCase("note.length > 0", ["apple", "Ärger", "café", "CAFE", "りんご", "straße", "emoji 🍎"]),
        PredicateCase("ANY labels.text.length == 6", ["banana"]),
        PredicateCase("shelf.title.length == 3", ["apple", "Apple Pie"]),
        PredicateCase("name.length == price", [""]),
    ]

    static let arithmetic: [PredicateCase] = [
        PredicateCase("price * 2 == 200", ["apple"]),
        PredicateCase("price + 50 == 150", ["apple"]),
        PredicateCase("price - 50 == 100", ["café", "CAFE"]),
        PredicateCase("150 == price + 50", ["apple"]),
        // Division gives a fraction, as NSExpression's divide:by: does.
        PredicateCase("price / 4 == 25", ["apple"]),
        PredicateCase("price / 3 > 66", ["Apple Pie", "Ärger", "max", "straße"]),
        PredicateCase("price / 8 == 12.5", ["apple"]),
        // * binds tighter than +.
        PredicateCase("price + 10 * 2 == 120", ["apple"]),
        PredicateCase("(price + 10) * 2 == 220", ["apple"]),
        PredicateCase("-price == -100", ["apple"]),
        PredicateCase("price - -50 == 150", ["apple"]),
        PredicateCase("modulus:by:(price, 100) == 0", ["apple", "Ärger", "", "straße"]),
        PredicateCase("weight * 2 > 3", ["Ärger", "max", "straße"]),
        PredicateCase("cost * 2 == 3", ["café", "CAFE"]),
        PredicateCase("small * small == 4", ["Apple Pie"]),
        PredicateCase("small ** 2 == 9", ["banana"]),
        PredicateCase("price * %d == %@", args: [3, 300], ["apple"]),
        // Overflow is computed in Double, never a trap: max + 1 is 2^63 > max.
        PredicateCase("price + 1 > price", everything),
        PredicateCase("price * price > 0", except("")),
        // Division by zero is IEEE's: +inf, -inf, or NaN for 0 / 0.
        PredicateCase("price / 0 > 0", except("", "min")),
        PredicateCase("weight * 2 < weight", ["min"]),
        PredicateCase("added < now() - 86400", everything),
        PredicateCase("added + 1000 == %@", args: [Date(timeIntervalSinceReferenceDate: 2000)], ["apple"]),
        PredicateCase("add:to:(price, 1) == 101", ["apple"]),
        PredicateCase("from:subtract:(price, 1) == 99", ["apple"]),
        PredicateCase("multiply:by:(price, 2) == 200", ["apple"]),
        PredicateCase("divide:by:(price, 2) == 50", ["apple"]),
        PredicateCase("raise:toPower:(small, 2) == 4", ["Apple Pie"]),
    ]

    static let bitwise: [PredicateCase] = [
        PredicateCase("(price & 4) == 4", ["apple", "café", "CAFE", "max", "straße", "e\u{301}clair"]),
        PredicateCase(
            "(%K & %d) == %d", args: ["price", 4, 4], ["apple", "café", "CAFE", "max", "straße", "e\u{301}clair"]),
        PredicateCase("bitwiseAnd:with:(price, 4) == 4", ["apple", "café", "CAFE", "max", "straße", "e\u{301}clair"]),
        PredicateCase("price | 1 == 101", ["apple"]),
        PredicateCase("price ^ 1 == 101", ["apple"]),
        PredicateCase("price << 1 == 200", ["apple"]),
        PredicateCase("price >> 1 == 50", ["apple"]),
        PredicateCase("~price == -101", ["apple"]),
        PredicateCase("bitwiseOr:with:(price, 1) == 101", ["apple"]),
        PredicateCase("bitwiseXor:with:(price, 100) == 0", ["apple"]),
        PredicateCase("leftshift:by:(small, 3) == 8", ["apple"]),
        PredicateCase("rightshift:by:(small, 1) == 6", ["straße", "e\u{301}clair"]),
        PredicateCase("onesComplement:(small) == -2", ["apple"]),
        // Shifts past the width give 0, never a trap.
        PredicateCase("price << 64 == 0", everything),
    ]

    static let functions: [PredicateCase] = [
        PredicateCase("uppercase:(name) == 'CAFE'", ["CAFE"]),
        PredicateCase("lowercase:(name) == 'apple'", ["apple"]),
        PredicateCase("uppercase(name) == 'APPLE'", ["apple"]),
        PredicateCase("abs:(small) == 32768", ["min"]),
        PredicateCase("abs(price) == 100", ["apple"]),
        PredicateCase("sqrt:(price) == 10", ["apple"]),
        PredicateCase("floor:(weight) == 1", ["Apple Pie", "café", "CAFE"]),
        PredicateCase(
            "ceiling:(weight) == 1", ["apple", "banana", "café", "CAFE", "りんご", "e\u{301}clair", "emoji 🍎"]),
        PredicateCase("trunc:(weight) == -1", ["min"]),
        PredicateCase("log:(price) == 2", ["apple"]),
        // exp:(32767) is +inf, whose ln: is +inf.
        PredicateCase("ln:(exp:(small)) > 13.5", ["max", "emoji 🍎"]),
        PredicateCase("noindex:(price) == 100", ["apple"]),
        PredicateCase("added > now()", []),
        PredicateCase("sum:(labels.rank) > 3", ["banana"]),
        PredicateCase("count:(labels) == 2", ["apple", "banana"]),
        PredicateCase("count:(labels) == labels.@count", everything),
        PredicateCase("max:(labels.rank) == 3", ["Apple Pie", "CAFE"]),
        PredicateCase("min:(labels.rank) == 1", ["apple", "りんご"]),
        PredicateCase("average:(labels.rank) == 3", ["Apple Pie", "banana", "CAFE"]),
        PredicateCase(
            "price > average:({50, 150})",
            ["Apple Pie", "Ärger", "café", "CAFE", "りんご", "max", "straße", "e\u{301}clair"]),
        PredicateCase("price == sum:(%@)", args: [[40, 60]], ["apple"]),
        PredicateCase("price == median:({80, 100, 300})", ["apple"]),
        PredicateCase("price == median:({80, 120, 300, 1})", ["apple"]),
        PredicateCase("price IN mode:({100, 80, 100, 80, 5})", ["apple", "banana"]),
        // The population standard deviation of {2, 4, 4, 4, 5, 5, 7, 9} is 2.
        PredicateCase("price > stddev:({2, 4, 4, 4, 5, 5, 7, 9}) * 100", ["Apple Pie", "max", "straße"]),
        PredicateCase("random() < 1 AND randomn:(10) < 10", everything),
        // CAST of a computed value: castObject:toType:.
        PredicateCase("CAST(added, 'NSNumber') == 1000", ["apple"]),
        PredicateCase("CAST(added, \"NSNumber\") + 1000 < 3000", ["apple", "", "min"]),
        PredicateCase("CAST(price, 'NSString') == '100'", ["apple"]),
        PredicateCase(
            "CAST(small * 1000, 'NSDate') == %@", args: [Date(timeIntervalSinceReferenceDate: 2000)], ["Apple Pie"]),
        PredicateCase("CAST(name, 'NSNumber') > 0", []),
        PredicateCase(
            "castObject:toType:(price, 'NSDecimalNumber') == cost * 100", except("apple", "max", "min", "nan")),
    ]

    static let conditionalsAndIndexes: [PredicateCase] = [
        PredicateCase("TERNARY(inStock == YES, price, 0) > 150", ["straße", "e\u{301}clair"]),
        PredicateCase(
            "TERNARY(price > 100, 'expensive', 'cheap') == 'cheap'", ["apple", "banana", "", "min", "nan", "emoji 🍎"]),
        PredicateCase("price == %@[FIRST]", args: [[100, 5]], ["apple"]),
        PredicateCase("price == {80, 100}[LAST]", ["apple"]),
        PredicateCase("price == {80, 100, 120}[%d]", args: [2], ["りんご"]),
        PredicateCase("price == {80, 100, 120}[1 + 1]", ["りんご"]),
        // Out of range is nil.
        PredicateCase("price == {1, 2}[5]", []),
        PredicateCase("labels[SIZE] == 2", ["apple", "banana"]),
        PredicateCase("labels[FIRST].text == 'sweet'", ["Apple Pie", "CAFE"]),
        PredicateCase("labels[LAST].text == 'sweet'", ["Apple Pie", "CAFE"]),
        PredicateCase("labels[FIRST] == nil", noLabels),
    ]

    static let composedKeyPaths: [PredicateCase] = [
        PredicateCase("ANY %K.%K == %@", args: ["labels", "text", "red"], ["apple", "りんご"]),
        PredicateCase("shelf.%K == %@", args: ["title", "Top"], ["apple", "Apple Pie"]),
        PredicateCase("%K.title == 'Top'", args: ["shelf"], ["apple", "Apple Pie"]),
        PredicateCase("%K.%K.city == 'Paris'", args: ["shelf", "shop"], ["apple", "Apple Pie"]),
        PredicateCase("labels.%K == 2", args: ["@count"], ["apple", "banana"]),
        PredicateCase("SUBQUERY(labels, $l, $l.%K == 'red').@count > 0", args: ["text"], ["apple", "りんご"]),
    ]

    /// `[n]` and `[l]` keep the results of the same comparison without them.
    static let options: [PredicateCase] = [
        PredicateCase("name ==[n] 'apple'", ["apple"]),
        PredicateCase("name ==[cn] 'APPLE'", ["apple"]),
        PredicateCase("name BEGINSWITH[cdl] 'cafe'", ["café", "CAFE"]),
        PredicateCase("name ==[l] 'café'", ["café"]),
        PredicateCase("name ==[cdn] 'cafe'", ["café", "CAFE"]),
        PredicateCase("name CONTAINS[nl] 'pp'", ["apple", "Apple Pie"]),
    ]
}
