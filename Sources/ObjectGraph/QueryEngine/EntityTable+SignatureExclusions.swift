extension EntityTable {
    /// A scan's exclusions for `signatureTests` (a row program's string tests by slot): the
    /// signature columns of their attributes, folded as each test folds, built now if the table
    /// has none and the scan tests at least ``StringPrefixColumn/rowsWorthBuilding`` rows.
    ///
    /// A column serves every later query of its attribute and folding, whatever its constant.
    func signatureExclusions(for signatureTests: [RowProgram.SignatureTest], testingRows rows: Int) -> [PrefixExclusion]
    {
        signatureTests.compactMap { conjunct in
            let test = conjunct.test
            // Without folded values to test, an empty requirement settles nothing.
            if test.required == .empty, StringSignature.folding(test.options) == 0 { return nil }
            return signatureColumns.column(
                slot: conjunct.slot, folding: StringSignature.folding(test.options), of: self,
                build: rows >= StringPrefixColumn.rowsWorthBuilding,
                signer: StringSignature.signer(folding: test.options)
            ).map {
                PrefixExclusion(
                    column: $0, required: test.required, negated: conjunct.negated, holdsBit: conjunct.holdsBit,
                    matchesFolded: test.matchesFolded)
            }
        }
    }
}
