import Foundation
import Testing

@testable import ObjectGraph

@Suite struct AggregateAccumulatorTests {
    private func fold(_ function: AggregateAccumulator.Function, _ values: [StoreValue]) -> StoreValue {
        var accumulator = AggregateAccumulator(function)
        for value in values { accumulator.add(value) }
        return accumulator.result
    }

    @Test func integersThatOverflowBesideDecimalsAreSummedExactly() {
        let values: [StoreValue] = [.int(.max), .int(.max), .decimal(1)]
        let expected = Decimal(Int64.max) * 2 + 1
        #expect(fold(.sum, values) == .decimal(expected))
        #expect(fold(.average, values) == .decimal(expected / 3))
        let negative: [StoreValue] = [.int(.min), .int(.min), .decimal(-1)]
        #expect(fold(.sum, negative) == .decimal(Decimal(Int64.min) * 2 - 1))
    }

    @Test func integersThatOverflowAloneSumAsADouble() {
        #expect(fold(.sum, [.int(.max), .int(1)]) == .double(Double(Int64.max) + 1))
        #expect(fold(.sum, [.int(2), .int(3)]) == .int(5))
    }

    @Test func minimumAndMaximumSkipNilsAndMatchTheCollectionOperators() {
        let values: [StoreValue] = [.null, .int(3), .int(-2), .null, .int(7)]
        #expect(fold(.min, values) == .int(-2))
        #expect(fold(.max, values) == .int(7))
        #expect(PredicateAggregation.apply(.min, to: values) == .int(-2))
        #expect(PredicateAggregation.apply(.max, to: values) == .int(7))
        #expect(fold(.min, [.null]) == .null)
    }
}
