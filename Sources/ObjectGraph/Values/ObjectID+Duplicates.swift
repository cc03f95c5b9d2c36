extension ObjectID {
    /// The first ID that appears twice in `ids`, or nil. A to-many relationship is a set: a file
    /// listing one object twice is damaged.
    ///
    /// - Complexity: O(*n*) (O(*n*²) compares for short lists, which allocate nothing).
    static func firstDuplicate(in ids: [ObjectID]) -> ObjectID? {
        guard ids.count > 1 else { return nil }
        if ids.count <= 16 {
            for index in ids.indices.dropFirst() where ids[..<index].contains(ids[index]) { return ids[index] }
            return nil
        }
        var seen = Set<ObjectID>(minimumCapacity: ids.count)
        for id in ids where !seen.insert(id).inserted { return id }
        return nil
    }
}
