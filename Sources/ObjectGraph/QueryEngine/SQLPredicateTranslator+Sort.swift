extension SQLPredicateTranslator {
    /// `ORDER BY` terms that order as ``CompiledSort`` does (nil first ascending, last
    /// descending; NaN before other numbers; strings by Swift's order through ``SQLSortKey``), ending with the key as
    /// the tie-break; `nil` when a descriptor does not translate (objectID keys, localized
    /// comparisons, decimals, paths SQL cannot follow).
    mutating func order(_ descriptors: [FetchSortDescriptor], row: Row) -> String? {
        var terms: [String] = []
        for descriptor in descriptors {
            let components = descriptor.key.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            guard descriptor.keyPathProblem == nil, !components.contains("objectID"),
                components.allSatisfy({ !$0.isEmpty }),
                case .value(let fragment, let entity, let slot)? = path(components, from: row),
                entity.isAttribute(slot),
                fragment.values.isEmpty
            else { return nil }
            let value = fragment.text(dialect)
            // SQLite sorts NULL first ascending, as the engine does; PostgreSQL must be told.
            let nulls = dialect == .sqlite ? "" : (descriptor.ascending ? " NULLS FIRST" : " NULLS LAST")
            let direction = (descriptor.ascending ? "ASC" : "DESC") + nulls
            switch entity.attribute(at: slot).type {
            case .boolean, .integer16, .integer32, .integer64, .uuid, .binary:
                terms.append("\(value) \(direction)")
            case .float, .double, .date:
                guard dialect == .sqlite else { return nil }
                // NULL, then NaN (stored as a blob), then numbers.
                terms += [
                    "(\(value) IS NOT NULL) \(direction)", "(typeof(\(value)) <> 'blob') \(direction)",
                    "\(value) \(direction)",
                ]
            case .string, .uri:
                guard dialect.supportsCustomFunctions else { return nil }
                let collation = "COLLATE \(SQLSortKey.collationName) \(direction)"
                switch (descriptor.comparison, entity.attribute(at: slot).type) {
                case (_, .uri), (.caseSensitive, _): terms.append("\(value) \(collation)")
                case (.caseInsensitive, _): terms.append("\(SQLSortKey.foldFunctionName)(\(value)) \(collation)")
                default: return nil
                }
            default:
                return nil
            }
        }
        return (terms + ["\(SQLFetchTranslation.alias).\(quote(SQLStoreSchema.keyColumn)) ASC"])
            .joined(separator: ", ")
    }
}
