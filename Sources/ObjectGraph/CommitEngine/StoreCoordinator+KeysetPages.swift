extension StoreCoordinator {
    /// Where a keyset scan of a querying store stands: the term values of the last row read.
    struct KeysetPosition {
        /// The values of the last row's `ORDER BY` terms (its key last); `nil` before the first page.
        var last: [SQLValue]?
        /// Rows still to skip before the first page (the fetch's offset).
        var offset: Int
    }

    /// The keys of the next page of at most `limit` committed objects a fetch selects, after
    /// `position` (which it moves past them), when a SQLite store's SQL selects exactly those
    /// objects in order; `nil` when it does not (the caller selects every key up front instead).
    /// The page is read without reading the keys before or after it, so a scan holds one page.
    func keysetPage(
        _ info: EntityInfo, predicate: PredicateExpression?, sort: [FetchSortDescriptor], limit: Int,
        after position: inout KeysetPosition
    ) throws -> [Int64]? {
        guard let querying else { return nil }
        let layout = try querying.layout()
        let start = position
        let page = try querying.withDatabase { database -> (keys: [Int64], last: [SQLValue]?)? in
            // Only SQLite's values are proven to compare as they were read back.
            guard database.dialect == .sqlite else { return nil }
            let translation = SQLFetchTranslation(
                predicate: predicate, sort: sort, entity: info, schema: layout, dialect: database.dialect)
            guard let (query, bindings) = translation.selectPage(after: start.last, limit: limit, offset: start.offset)
            else { return nil }
            let width = translation.orderTerms?.count ?? 0
            var keys: [Int64] = []
            var last: [SQLValue]?
            try database.forEachRow(query, bindings) { row in
                let values = (0..<width).map { row.column($0) }
                if let key = values.last?.integer { keys.append(key) }
                last = values
            }
            return (keys, last)
        }
        guard let page else { return nil }
        position.offset = 0
        if let last = page.last { position.last = last }
        return page.keys
    }
}
