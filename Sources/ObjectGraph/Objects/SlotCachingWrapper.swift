/// A property wrapper that remembers its slot in its object's values.
@usableFromInline
protocol SlotCachingWrapper {
    /// The wrapper's slot, or a negative number before it is known.
    var cachedSlot: Int { get }
    /// Remembers the wrapper's slot.
    mutating func cacheSlot(_ slot: Int)
}
