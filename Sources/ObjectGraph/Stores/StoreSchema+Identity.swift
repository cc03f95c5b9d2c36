extension StoreSchema {
    /// Whether data stored with the schema `stored` reads as data of `entities` with nothing to
    /// migrate: the same entities (in any order) with the same stored schema.
    static func isSame(_ stored: [EntityDescription], as entities: [EntityDescription]) -> Bool {
        guard stored.count == entities.count else { return false }
        return encode(stored.sorted { $0.name < $1.name }) == encode(entities.sorted { $0.name < $1.name })
    }
}
