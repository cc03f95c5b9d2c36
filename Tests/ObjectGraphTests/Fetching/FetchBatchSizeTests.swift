import Foundation
import ObjectGraph
import Testing

@Suite struct FetchBatchSizeTests {
    @Test func fetchBatchSizeIsKeptAndDescribed() {
        var request = Fruit.fetchRequest()
        #expect(request.fetchBatchSize == 0)
        #expect(!request.description.contains("batch"))
        request.fetchBatchSize = 20
        #expect(request.fetchBatchSize == 20)
        #expect(request.description.contains("batch size: 20"))
    }

    @Test(arguments: [0, 1, 2, 7, 1_000, -3])
    func resultsAreTheSameWhateverTheBatchSize(batchSize: Int) throws {
        let (_, context) = try makeContext()
        for index in 0..<25 { makeFruit(context, "fruit \(index)", price: Int64(index % 7)) }
        try context.save()
        makeFruit(context, "unsaved", price: 3)
        var request = Fruit.fetchRequest()
        request.predicate = try FetchPredicate(format: "price >= %d", 3)
        request.sortDescriptors = [SortDescriptor(key: "price"), SortDescriptor(key: "name")]
        request.fetchOffset = 2
        request.fetchLimit = 9
        let expected = try context.fetch(request).map(\.name)
        request.fetchBatchSize = batchSize
        #expect(try context.fetch(request).map(\.name) == expected)
        #expect(try context.count(for: request) == 9)
        #expect(try context.fetchObjectIDs(request).count == 9)
    }
}
