extension Array where Element == ObjectID {
    /// The first index whose element satisfies `belongs`, for a predicate that is false for a
    /// prefix of the array and true for the rest.
    func partitioningIndex(where belongs: (ObjectID) -> Bool) -> Int {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if belongs(self[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
