import Foundation

/// The ``ASCIICollationKey``s of a sort's values under one localized comparison, one after
/// another, for the values that have one (printable ASCII strings).
struct ASCIICollationKeys {
    /// The keys: value `p`'s are `starts[p]..<starts[p + 1]` (empty where it has none).
    let bytes: [UInt8]
    let starts: [Int]
    /// Whether value `p` has a key.
    let hasKey: [Bool]

    /// The keys of the `count` values `value(0..<count)`; `nil` if none has a key, if
    /// `requiringKeys` and a value is neither nil nor has a key, or if the current locale does
    /// not order strings as the keys do (``ASCIICollationKey/agreesWithFoundation(_:sortingRows:)``,
    /// probed when `count` pays for it, after the keys exist).
    init?(
        count: Int, comparison: SortDescriptor.Comparison, requiringKeys: Bool, value: (Int) -> StoreValue
    ) {
        // A locale known to order ASCII otherwise: no keys to make.
        let known = ASCIICollationKey.knownAgreement(comparison)
        guard known != false else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count * 24)
        var starts: [Int] = []
        starts.reserveCapacity(count + 1)
        var hasKey = [Bool](repeating: false, count: count)
        var keyed = 0
        var writer = ASCIICollationKey.Writer()
        for position in 0..<count {
            starts.append(bytes.count)
            let value = value(position)
            if case .string(let text) = value, writer.append(text, comparison: comparison, to: &bytes) {
                hasKey[position] = true
                keyed += 1
            } else if requiringKeys, !value.isNull {
                return nil
            }
        }
        starts.append(bytes.count)
        guard keyed > 0, known ?? ASCIICollationKey.agreesWithFoundation(comparison, sortingRows: count) else {
            return nil
        }
        (self.bytes, self.starts, self.hasKey) = (bytes, starts, hasKey)
    }

    /// -1, 0 or 1: how values `lhs` and `rhs` order, when both have keys; `nil` otherwise.
    func compare(_ lhs: Int, _ rhs: Int) -> Int? {
        guard hasKey[lhs], hasKey[rhs] else { return nil }
        return bytes.withUnsafeBufferPointer { bytes in
            let a = UnsafeBufferPointer(rebasing: bytes[starts[lhs]..<starts[lhs + 1]])
            let b = UnsafeBufferPointer(rebasing: bytes[starts[rhs]..<starts[rhs + 1]])
            // Keys are bytes, so `memcmp` orders them; the shorter one first where one is the
            // other's start.
            let common = Swift.min(a.count, b.count)
            let order = common == 0 ? 0 : memcmp(a.baseAddress!, b.baseAddress!, common)
            if order != 0 { return order < 0 ? -1 : 1 }
            return a.count == b.count ? 0 : (a.count < b.count ? -1 : 1)
        }
    }
}
