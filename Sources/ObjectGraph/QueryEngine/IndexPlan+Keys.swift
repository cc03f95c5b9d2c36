extension IndexPlan {
    /// A plan of keys selected elsewhere (a querying store's SQL), in sort order or ascending.
    init(keys: [Int64], isInSortOrder: Bool) {
        self.keys = keys
        self.isInSortOrder = isInSortOrder
        self.impliedTests = []
    }
}
