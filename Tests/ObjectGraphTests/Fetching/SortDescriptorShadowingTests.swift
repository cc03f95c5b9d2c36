// Imports Foundation and ObjectGraph, as apps do. Calls of `SortDescriptor(key:ascending:)` and
// typed key-path descriptors where the expected type is known resolve to ObjectGraph's type, or
// this file would not compile. (As a type name, an unqualified `SortDescriptor` is ambiguous
// between the two modules: Swift lets only the standard library be shadowed. Write
// `FetchSortDescriptor` in type annotations, and for a typed key path with no expected type,
// since Foundation's `SortDescriptor<Root>(_:order:)` matches it too.)
import Foundation
import ObjectGraph
import Testing

@Suite struct SortDescriptorShadowingTests {
    @Test func unqualifiedSortDescriptorIsObjectGraphs() throws {
        let descriptor = SortDescriptor(key: "price", ascending: false)
        let typed: ObjectGraph.SortDescriptor = descriptor
        var request = Fruit.fetchRequest()
        request.sortDescriptors = [descriptor, SortDescriptor(key: "name")]
        let typedKeyPaths: [ObjectGraph.SortDescriptor] = [SortDescriptor(\Fruit.price, order: .reverse)]
        #expect(typedKeyPaths == [descriptor])
        let (_, context) = try makeContext()
        makeFruit(context, "cheap", price: 1)
        makeFruit(context, "dear", price: 9)
        #expect(try context.fetch(request).map(\.name) == ["dear", "cheap"])
        #expect(typed.key == "price")
        // Foundation's type stays reachable by its module name.
        let foundation = Foundation.SortDescriptor<Fruit>(\.name)
        #expect(foundation.order == .forward)
    }
}
