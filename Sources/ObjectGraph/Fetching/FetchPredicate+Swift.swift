import Foundation

extension FetchPredicate {
    /// Creates a predicate from a Foundation `#Predicate` over a `ManagedObject` subclass.
    ///
    /// Common shapes convert into the ``PredicateExpression`` tree, exactly as if they had been
    /// written in format syntax: comparisons (`==`, `!=`, `<`, `<=`, `>`, `>=`) of an attribute
    /// (also through to-one relationships, `$0.basket?.label`) with a captured value or another
    /// attribute, `&&`, `||`, `!`, `Bool` attributes used as conditions, `== nil` and `!= nil`,
    /// `[values].contains($0.key)` (`IN`), `$0.name.contains(text)` (`CONTAINS`),
    /// `$0.name.starts(with: text)` (`BEGINSWITH`) and `(lo...hi).contains($0.key)` (`BETWEEN`).
    /// A converted predicate is an ordinary `FetchPredicate`: it prints in format syntax, encodes,
    /// and combines with others.
    ///
    /// Anything else (arithmetic, `??`, closures, `count`, comparisons of strings with `<`, …) is
    /// evaluated by calling the Foundation predicate on each candidate object, after the
    /// operands of its top-level `&&` that do convert have narrowed the candidates. Such a
    /// predicate (``evaluatesInSwift`` is `true`) cannot be encoded, and its description (with
    /// `#Predicate<Fruit>` standing for the Swift part) does not parse. Objects a fetch gives to
    /// the Swift part are registered in the context, matching or not.
    ///
    /// For example:
    /// ```swift
    /// var request = Fruit.fetchRequest()
    /// request.predicate = FetchPredicate(#Predicate<Fruit> { $0.price > 100 && $0.name.starts(with: "a") })
    /// // request.predicate?.description == #"price > 100 AND name BEGINSWITH "a""#
    /// ```
    ///
    /// A property is found by reading the key path on a throwaway object, as
    /// `SortDescriptor(\Fruit.price)` does: a computed property that reads exactly one attribute
    /// of the same type converts as that attribute.
    ///
    /// Fetching throws `PersistenceError.Code.invalidFetchRequest` if the request's objects are
    /// not `Object`s, and `.invalidPredicate` (with the Foundation error as `underlying`) if the
    /// Swift part throws.
    ///
    /// Core Data: `NSPredicate(_:)` (conversion of a Foundation `Predicate`).
    public init<Object: ManagedObject>(_ predicate: Predicate<Object>) {
        let (conjuncts, isWhole) = SwiftPredicateConversion.convert(predicate)
        if isWhole {
            self.init(conjuncts[0])
            return
        }
        self.init(conjuncts.isEmpty ? .constant(true) : (conjuncts.count == 1 ? conjuncts[0] : .and(conjuncts)))
        self.swiftTerm = .swift(SwiftPredicateEvaluator(predicate))
    }

    /// Whether part of the predicate is a Swift `#Predicate` that did not convert to the
    /// expression tree, and so is evaluated on objects.
    ///
    /// Such a predicate cannot be encoded (encoding throws
    /// `PersistenceError.Code.unsupportedPredicate`), and its ``description`` does not parse.
    public var evaluatesInSwift: Bool { swiftTerm != nil }

    /// The whole condition as a term: the expression and the Swift part.
    var wholeTerm: SwiftPredicateTerm {
        guard let swiftTerm else { return .expression(expression) }
        if expression == .constant(true) { return swiftTerm }
        return .and([.expression(expression), swiftTerm])
    }
}
