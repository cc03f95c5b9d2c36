import Testing

@testable import ObjectGraph

/// `EntityTable.set` against a dictionary: appends in key order (the replay's and inserts' path),
/// sparse keys, keys past chunk boundaries, replacements and removals.
@Suite struct EntityTableTests {
    private func row(_ key: Int64, version: Int64 = 1) -> EntityTable.Row {
        EntityTable.Row(version: version, values: [.int(key), .string("row \(key) é")])
    }

    /// Applies `operations` (a key with a row or nil) to a table and to a dictionary, and checks
    /// they agree after every step.
    private func check(_ operations: [(Int64, EntityTable.Row?)]) {
        var table = EntityTable()
        var expected: [Int64: EntityTable.Row] = [:]
        var largest: Int64 = 0
        for (key, row) in operations {
            table.set(row, forKey: key)
            expected[key] = row
            if row != nil { largest = max(largest, key) }
            #expect(table.count == expected.count)
        }
        var visited: [Int64] = []
        table.forEach { key, row in
            visited.append(key)
            #expect(row.values == expected[key]?.values, "key \(key)")
            #expect(row.version == expected[key]?.version, "key \(key)")
        }
        #expect(visited == expected.keys.sorted())
        #expect(table.chunks.reduce(0) { $0 + ($1?.live ?? 0) } == expected.count)
        #expect(table.nextKey == largest + 1)
        for key in Set(operations.map(\.0)).union([1, 511, 512, 513, 1024, 1025, 5000]) {
            #expect(table.contains(key) == (expected[key] != nil), "key \(key)")
            #expect(table[key]?.values == expected[key]?.values, "key \(key)")
        }
    }

    @Test func emptyTable() {
        check([])
        // Removing from an empty table (and past its end) changes nothing.
        check([(1, nil), (700, nil)])
    }

    @Test func keysInOrderPastSeveralChunkBoundaries() {
        check((1...1_537).map { ($0, row($0)) })
    }

    @Test func sparseKeysAndKeysOutOfOrder() {
        check([(600, row(600)), (1, row(1)), (5_000, row(5_000)), (513, row(513)), (512, row(512)), (2, row(2))])
    }

    @Test func replacementsAndRemovalsAcrossChunks() {
        var operations: [(Int64, EntityTable.Row?)] = (1...1_100).map { ($0, row($0)) }
        // Empty the first chunk completely, replace rows in the second, then refill some.
        operations += (1...512).map { ($0, nil) }
        operations += stride(from: 513, through: 1_024, by: 7).map { ($0, row($0, version: 2)) }
        operations += [(3, row(3, version: 3)), (1_101, row(1_101)), (1_100, nil), (1_101, nil), (1_600, row(1_600))]
        check(operations)
    }
}
