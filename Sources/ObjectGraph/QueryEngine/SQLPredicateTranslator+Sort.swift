extension SQLPredicateTranslator {
    /// `ORDER BY` terms that order as ``CompiledSort`` does (nil first ascending, last
    /// descending; NaN before other numbers; strings by Swift's order through ``SQLSortKey``), ending with the key as
    /// the tie-break; `nil` when a descriptor does not translate (objectID keys, localized
    /// comparisons, decimals, paths SQL cannot follow).
    mutating func order(_ descriptors: [FetchSortDescriptor], row: Row) -> String? {
        orderTerms(descriptors, row: row)?.map { $0.ordering(dialect) }.joined(separator: ", ")
    }

    /// The terms of ``order(_:row:)``, the key last; `nil` when a descriptor does not translate.
    mutating func orderTerms(_ descriptors: [FetchSortDescriptor], row: Row) -> [SQLOrderTerm]? {
        var terms: [SQLOrderTerm] = []
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
            let ascending = descriptor.ascending
            switch entity.attribute(at: slot).type {
            case .boolean, .integer16, .integer32, .integer64, .uuid, .binary:
                terms.append(SQLOrderTerm(expression: value, ascending: ascending))
            case .float, .double, .date:
                guard dialect == .sqlite else { return nil }
                // NULL, then NaN (stored as a blob), then numbers.
                terms += ["(\(value) IS NOT NULL)", "(typeof(\(value)) <> 'blob')", value].map {
                    SQLOrderTerm(expression: $0, ascending: ascending)
                }
            case .string, .uri:
                guard dialect.supportsCustomFunctions else { return nil }
                let collation = SQLSortKey.collationName
                switch (descriptor.comparison, entity.attribute(at: slot).type) {
                case (_, .uri), (.caseSensitive, _):
                    terms.append(SQLOrderTerm(expression: value, collation: collation, ascending: ascending))
                case (.caseInsensitive, _):
                    terms.append(
                        SQLOrderTerm(
                            expression: "\(SQLSortKey.foldFunctionName)(\(value))", collation: collation,
                            ascending: ascending))
                default: return nil
                }
            default:
                return nil
            }
        }
        let key = "\(SQLFetchTranslation.alias).\(quote(SQLStoreSchema.keyColumn))"
        return terms + [SQLOrderTerm(expression: key, ascending: true, canBeNull: false)]
    }
}
