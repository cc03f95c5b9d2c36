import Foundation
import ObjectGraph

/// A fetch with a Foundation `#Predicate` (converted, partly converted, evaluated in Swift)
/// next to the same fetch with a format predicate, on a store of `count` items. Run with
/// `--only "predicate fetch"`.
func runSwiftPredicateBenchmarks(_ container: PersistentContainer, count: Int) throws {
    let format = try FetchPredicate(format: "price BETWEEN {100, 200} AND name BEGINSWITH %@", "item 1")
    let converted = FetchPredicate(
        #Predicate<Item> { (100...200).contains($0.price) && $0.name.starts(with: "item 1") })
    precondition(converted.description == format.description && !converted.evaluatesInSwift)
    // Integer division does not convert (the format language's divide:by: gives a fraction), so
    // this conjunct (100...200 for the benchmark's non-negative prices) runs in Swift.
    let partly = FetchPredicate(
        #Predicate<Item> { ($0.price + 1) / 101 == 1 && $0.name.starts(with: "item 1") })
    precondition(partly.evaluatesInSwift)
    let expected = try container.newContext().count(for: FetchRequest<Item>(predicate: format))
    precondition(expected > 0)

    for (label, predicate) in [
        ("format predicate", format), ("#Predicate, converted", converted),
        ("#Predicate, arithmetic conjunct evaluated in Swift", partly),
    ] {
        try measure(
            "predicate fetch: \(label) (price BETWEEN {100, 200} AND name BEGINSWITH), \(count) objects, new context",
            iterations: 20
        ) {
            let fetched = try container.newContext().fetch(FetchRequest<Item>(predicate: predicate))
            precondition(fetched.count == expected)
        }
    }

    let swiftOnly = FetchPredicate(#Predicate<Item> { $0.price - $0.price / 1_000 * 1_000 == 150 })
    precondition(swiftOnly.evaluatesInSwift)
    let formatOnly = try FetchPredicate(format: "price == 150")
    for (label, predicate) in [("format predicate", formatOnly), ("#Predicate, all in Swift", swiftOnly)] {
        try measure(
            "predicate fetch: \(label) (price % 1000 == 150 / price == 150), \(count) objects, new context",
            iterations: 1, repetitions: 5
        ) {
            let fetched = try container.newContext().fetch(FetchRequest<Item>(predicate: predicate))
            precondition(fetched.count == count / 1_000)
        }
    }

    measure("predicate fetch: convert a 5-clause #Predicate to a FetchPredicate", iterations: 200) {
        let predicate = FetchPredicate(
            #Predicate<Item> {
                $0.price > 100 && $0.price < 200 && $0.name.starts(with: "item") && $0.weight != 0
                    && ["a", "b"].contains($0.name)
            })
        precondition(!predicate.evaluatesInSwift)
    }
}
