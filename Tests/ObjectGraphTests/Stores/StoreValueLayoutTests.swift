import Foundation
import Testing

@testable import ObjectGraph

/// Every row and every object's values pay a ``StoreValue`` per slot: it stays at 24 bytes in an
/// array (a decimal and a to-one reference are kept out of line), and the out-of-line cases
/// still compare, hash and copy as values.
@Suite struct StoreValueLayoutTests {
    @Test func aValueTakesTwentyFourBytesInAnArray() {
        #expect(MemoryLayout<StoreValue>.stride == 24)
    }

    @Test func outOfLineValuesCompareAndHashByValue() {
        let id = ObjectID(entityName: "Item", key: 7)
        let decimal = Decimal(string: "12345678901234567890.123")!
        #expect(StoreValue.object(id) == .object(ObjectID(entityName: "Item", key: 7)))
        #expect(StoreValue.object(id) != .object(ObjectID(entityName: "Item", key: 8)))
        #expect(StoreValue.decimal(decimal) == .decimal(Decimal(string: "12345678901234567890.123")!))
        #expect(Set<StoreValue>([.object(id), .object(id), .decimal(decimal), .decimal(decimal)]).count == 2)
        var values: [StoreValue] = [.object(id), .decimal(decimal)]
        let copy = values
        values[0] = .object(ObjectID(entityName: "Item", key: 9))
        #expect(copy[0] == .object(id))
        guard case .object(let read) = copy[0], case .decimal(let number) = copy[1] else {
            Issue.record("The values read back as other cases.")
            return
        }
        #expect(read.key == 7 && read.entityName == "Item" && number == decimal)
    }
}
