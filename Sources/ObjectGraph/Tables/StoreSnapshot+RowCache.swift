extension StoreSnapshot {
    /// An empty snapshot for `model` whose tables keep no attribute indexes: the row cache of a
    /// store that answers queries itself. Its SQL indexes do the work of the in-memory ones, and a
    /// cache holds only the rows read so far, so an index over it could not find every object;
    /// keeping one current would only cost each row read.
    init(rowCacheOf model: ManagedObjectModel) {
        self.init(model: model)
        for index in tables.indices { tables[index].indexes = [] }
    }
}
