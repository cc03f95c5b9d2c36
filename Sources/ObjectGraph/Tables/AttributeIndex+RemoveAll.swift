extension AttributeIndex {
    /// An index of the same attribute with no keys.
    var emptied: AttributeIndex {
        switch self {
        case .integer(let slot, _): .integer(slot: slot, SortedKeyIndex())
        case .real(let slot, _): .real(slot: slot, SortedKeyIndex())
        case .string(let slot, _): .string(slot: slot, SortedKeyIndex())
        case .decimal(let slot, _): .decimal(slot: slot, SortedKeyIndex())
        case .uuid(let slot, _): .uuid(slot: slot, SortedKeyIndex())
        case .compound(let index): .compound(index.emptied)
        }
    }
}
