import Foundation
import Testing

@testable import ObjectGraph

/// ``RowChunk/Rows``: scans read rows' values in place, and must see exactly the values (and
/// the absences) that copying the rows out sees, however the table's chunks were shared.
@Suite struct EntityTableInPlaceTests {
    /// Rows of every shape: empty values, large strings, nested arrays, holes, a deleted row,
    /// rows past a chunk boundary, and one at the far end of a sparse chunk.
    static func table() -> EntityTable {
        var table = EntityTable()
        let shapes: [[StoreValue]] = [
            [], [.null], [.int(.min), .string("")], [.string(String(repeating: "é", count: 100)), .double(-0.0)],
            [.objects([ObjectID(entityName: "Item", key: 3)]), .data(Data(repeating: 0xFF, count: 4_096))],
            [.string("りんご 🍎"), .bool(true), .uuid(UUID()), .date(Date(timeIntervalSince1970: 0))],
        ]
        let keys: [Int64] = [1, 2, 3, 5, 8, 511, 512, 513, 514, 1_024, 1_025, 2_047]
        for (position, key) in keys.enumerated() {
            table.set(
                EntityTable.Row(version: Int64(position + 1), values: shapes[position % shapes.count]), forKey: key)
        }
        table.set(nil, forKey: 5)
        return table
    }

    @Test func everyRowReadsTheSameInPlaceAsCopied() {
        let table = Self.table()
        var rowsSeen = 0
        for chunk in table.chunks {
            guard let chunk else { continue }
            chunk.withRows { rows in
                #expect(rows.count == chunk.end)
                for offset in 0..<rows.count {
                    let read = rows.values(at: offset).map(Array.init)
                    #expect(read == rows[offset]?.values, "offset \(offset)")
                    #expect(rows.contains(offset) == (rows[offset] != nil))
                    var tested: [StoreValue]?
                    let included = rows.test(offset) {
                        tested = Array($0)
                        return true
                    }
                    #expect(included == rows.contains(offset))
                    #expect(tested == read)
                    if included { rowsSeen += 1 }
                }
            }
        }
        #expect(rowsSeen == table.count)
        #expect(table.chunks.reduce(0) { $0 + ($1?.live ?? 0) } == table.count)
    }

    @Test func aChunkThatLosesItsLastRowIsReleased() {
        var table = Self.table()
        for key: Int64 in [1_024, 1_025, 2_047] { table.set(nil, forKey: key) }
        #expect(table.chunks.count == 4)
        #expect(table.chunks[2] == nil && table.chunks[3] == nil)
        #expect(table.chunks[0] != nil && table.chunks[1] != nil)
        #expect(table[1_024] == nil && table.contains(1_024) == false)
    }

    @Test func aSharedChunkIsCopiedBeforeItChangesAndAnUnsharedOneIsNot() {
        var table = Self.table()
        let chunk = ObjectIdentifier(table.chunks[0]!)
        table.set(EntityTable.Row(version: 7, values: [.int(1)]), forKey: 4)
        // The only table holding it changes it in place.
        #expect(ObjectIdentifier(table.chunks[0]!) == chunk)
        let snapshot = table
        table.set(EntityTable.Row(version: 8, values: [.int(2)]), forKey: 4)
        #expect(ObjectIdentifier(table.chunks[0]!) != chunk)
        #expect(ObjectIdentifier(snapshot.chunks[0]!) == chunk)
        #expect(snapshot[4]?.values == [.int(1)] && table[4]?.values == [.int(2)])
        #expect(snapshot[4]?.version == 7 && table[4]?.version == 8)
        // The other chunks are still shared.
        #expect(ObjectIdentifier(table.chunks[1]!) == ObjectIdentifier(snapshot.chunks[1]!))
    }

    @Test func theFirstChunkGrowsAsItsRowsArriveAndKeepsThem() {
        var table = EntityTable()
        var shared: [EntityTable] = []
        for key in Int64(1)...600 {
            table.set(EntityTable.Row(version: key, values: [.int(key), .string("row \(key)")]), forKey: key)
            // Every 50 rows a snapshot holds the table as it is, as a fetch would.
            if key % 50 == 0 { shared.append(table) }
        }
        #expect(table.chunks[0]?.capacity == EntityTable.chunkSize)
        #expect(table.chunks[0]?.end == EntityTable.chunkSize)
        for (position, snapshot) in shared.enumerated() {
            let rows = Int64(position + 1) * 50
            #expect(snapshot.count == Int(rows))
            var keys: [Int64] = []
            snapshot.forEach { key, row in
                keys.append(key)
                #expect(row.values == [.int(key), .string("row \(key)")] && row.version == key)
            }
            #expect(keys == Array(1...rows))
        }
    }

    @Test func scansSeeTheRowsAndOnlyThem() {
        let table = Self.table()
        var copied: [(Int64, [StoreValue])] = []
        table.forEach { key, row in copied.append((key, row.values)) }
        var scanned: [(Int64, [StoreValue])] = []
        table.forEachWhile(
            including: { key, values, _ in
                scanned.append((key, Array(values)))
                return key != 513
            },
            { key, row in
                #expect(key != 513)
                return true
            })
        #expect(scanned.map(\.0) == [1, 2, 3, 8, 511, 512, 513, 514, 1_024, 1_025, 2_047])
        #expect(scanned.map(\.0) == copied.map(\.0))
        #expect(zip(scanned, copied).allSatisfy { $0.1 == $1.1 })
        let kept = table.keys([2_047, 5, 4, 513, 1, 9_999, 1_024][...]) { key, values in
            values.count == table[key]?.values.count && key != 1_024
        }
        #expect(kept == [2_047, 513, 1])
    }

    @Test func aRowReadInPlaceStaysValidWhileASaveReplacesIt() {
        // A fetch's snapshot keeps its chunks: a later change to the table copies the chunk and
        // leaves the snapshot's rows (read in place) as they were.
        var table = Self.table()
        let snapshot = table
        table.set(EntityTable.Row(version: 99, values: [.string("replaced")]), forKey: 2)
        table.set(nil, forKey: 3)
        var seen: [Int64: [StoreValue]] = [:]
        snapshot.forEachWhile(
            including: { key, values, _ in
                seen[key] = Array(values)
                return false
            }, { _, _ in true })
        #expect(seen[2] == [.null])
        #expect(seen[3] == [.int(.min), .string("")])
        #expect(table[2]?.values == [.string("replaced")])
    }
}
