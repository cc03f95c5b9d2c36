import Foundation

extension StoreCoordinator {
    /// The keys of the stored objects of `info` that may share a uniqueness constraint's
    /// `values` (at `slots`) with a written object, from a querying store: a superset of those
    /// the in-memory uniqueness index finds equal, which the commit plan then decides on.
    ///
    /// Strings are compared as Swift compares them (canonical equivalence: a precomposed "é"
    /// equals "e" with a combining accent, and U+212A KELVIN SIGN equals "K"), whatever form each
    /// stored value is in: the string slots are selected by the fetch translation of `==`, which
    /// uses the engine's own test where byte equality could miss an equal string. Without that
    /// test (a dialect without custom functions), the string's canonical forms (NFC, NFD and as
    /// written) are looked up by byte equality, which finds every stored value kept in one of
    /// those forms.
    func uniquenessCandidates(
        of info: EntityInfo, slots: [Int], values: [StoreValue], layout: SQLStoreSchema, database: any SQLDatabase
    ) throws -> [Int64] {
        let strings = zip(slots, values).compactMap { slot, value -> PredicateExpression? in
            guard case .string(let text) = value else { return nil }
            let path = PredicateExpression.Operand.keyPath(.evaluatedObject, [info.propertyName(at: slot)])
            return .comparison(.init(path, .equalTo, .constant(.string(text))))
        }
        guard !strings.isEmpty else {
            return try layout.keys(entityIndex: info.index, slots: slots, equalTo: values, database)
        }
        let translation = SQLFetchTranslation(
            predicate: strings.count == 1 ? strings[0] : .and(strings), sort: [], entity: info, schema: layout,
            dialect: database.dialect)
        guard translation.isExact, translation.condition != nil else {
            return try canonicalFormCandidates(of: info, slots: slots, values: values, layout: layout, database)
        }
        var keys: [Int64] = []
        try database.forEachRow(translation.selectKeys(limit: nil, offset: 0), translation.bindings) { row in
            if let key = try SQLStoreSchema.selectedKey(row.column(0)) { keys.append(key) }
        }
        return keys
    }

    /// The stored objects whose strings at `slots` are byte-equal to a canonical form of the
    /// written ones (as written, NFC or NFD), and whose other slots hold `values`.
    private func canonicalFormCandidates(
        of info: EntityInfo, slots: [Int], values: [StoreValue], layout: SQLStoreSchema, _ database: any SQLDatabase
    ) throws -> [Int64] {
        var spellings: [[StoreValue]] = [values]
        for (index, value) in values.enumerated() {
            guard case .string(let text) = value else { continue }
            let forms = [text, text.precomposedStringWithCanonicalMapping, text.decomposedStringWithCanonicalMapping]
            let unique = forms.reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
            spellings = spellings.flatMap { spelling in
                unique.map { form in
                    var changed = spelling
                    changed[index] = .string(form)
                    return changed
                }
            }
        }
        var keys: [Int64] = []
        for spelling in spellings {
            keys += try layout.keys(entityIndex: info.index, slots: slots, equalTo: spelling, database)
        }
        return keys
    }
}
