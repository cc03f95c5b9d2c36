import Foundation
import Testing

@testable import ObjectGraph

/// ``EntityTable/InPlaceRows``: scans read rows' values in place, and must see exactly the
/// values (and the absences) that copying the rows out sees.
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

    @Test func inPlaceReadsAreVerifiedOnThisPlatform() {
        // Linux and Apple platforms lay out optionals and native arrays alike; if this fails,
        // scans still work (they copy rows) but lose the in-place speed.
        #expect(EntityTable.InPlaceRows.isVerified)
    }

    @Test func everyRowReadsTheSameInPlaceAsCopied() {
        let table = Self.table()
        for chunk in table.chunks {
            chunk.withUnsafeBufferPointer { rows in
                for offset in rows.indices {
                    let read = EntityTable.InPlaceRows.values(in: rows, at: offset).map(Array.init)
                    #expect(read == rows[offset]?.values, "offset \(offset)")
                    var copied: [StoreValue]?
                    let included = EntityTable.InPlaceRows.test(rows, at: offset, inPlace: false) {
                        copied = Array($0)
                        return true
                    }
                    var inPlace: [StoreValue]?
                    let includedInPlace = EntityTable.InPlaceRows.test(rows, at: offset, inPlace: true) {
                        inPlace = Array($0)
                        return true
                    }
                    #expect(included == (rows[offset] != nil))
                    #expect(includedInPlace == included)
                    #expect(inPlace == copied)
                }
            }
        }
    }

    @Test func scansSeeTheRowsAndOnlyThem() {
        let table = Self.table()
        var copied: [(Int64, [StoreValue])] = []
        table.forEach { key, row in copied.append((key, row.values)) }
        var scanned: [(Int64, [StoreValue])] = []
        table.forEachWhile(
            including: { key, values in
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
            including: { key, values in
                seen[key] = Array(values)
                return false
            }, { _, _ in true })
        #expect(seen[2] == [.null])
        #expect(seen[3] == [.int(.min), .string("")])
        #expect(table[2]?.values == [.string("replaced")])
    }
}
