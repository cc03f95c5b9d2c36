/// A property wrapper that remembers its slot in its object's values.
@usableFromInline
protocol SlotCachingWrapper {
    /// The wrapper's slot, or a negative number before it is known (``WrapperSlot/cached``).
    var cachedSlot: Int { get }
    /// Remembers the wrapper's slot.
    mutating func cacheSlot(_ slot: Int)
}

/// A wrapper's slot, cached in one byte so that each wrapper adds one byte to its object.
///
/// 0 while unknown; `slot + 1` for slots up to ``largestCached``; ``uncached`` once resolved
/// for a larger slot (resolved again on every access); ``probeMark`` in the throwaway
/// instance that finds a wrapper's property name.
@usableFromInline
struct WrapperSlot {
    @usableFromInline var raw: UInt8 = 0

    @inlinable init() {}

    /// The largest slot a wrapper caches.
    static let largestCached = 252
    @usableFromInline static let uncached: UInt8 = 254
    static let probeMark: UInt8 = 255
    /// The probe's mark as ``SlotCachingWrapper/cachedSlot`` reads it and `cacheSlot` writes it.
    static let probeMarkSlot = -2

    /// The cached slot, or `nil` if it must be resolved.
    // 253: largestCached + 1, written out so that the check costs no global's accessor.
    @inlinable var known: Int? { raw &- 1 < 253 ? Int(raw &- 1) : nil }

    /// The slot for ``SlotCachingWrapper/cachedSlot``: -1 while unknown, ``probeMarkSlot`` for the
    /// probe's mark,
    /// `Int.max` for a resolved slot too large to cache.
    var cached: Int {
        switch raw {
        case 0: -1
        case Self.probeMark: Self.probeMarkSlot
        case Self.uncached: .max
        default: Int(raw) - 1
        }
    }

    /// Remembers `slot` (``probeMarkSlot``: the probe's mark).
    @usableFromInline mutating func cache(_ slot: Int) {
        if slot == Self.probeMarkSlot {
            raw = Self.probeMark
        } else if (0...Self.largestCached).contains(slot) {
            raw = UInt8(slot + 1)
        } else {
            raw = slot < 0 ? 0 : Self.uncached
        }
    }
}
