extension EntityTable {
    /// A scan's exclusions for `signatureTests` (a row program's string tests by slot): the
    /// signature columns of their attributes, folded as each test folds, built now if the table
    /// has none and the scan tests at least ``StringPrefixColumn/rowsWorthBuilding`` rows.
    ///
    /// A column serves every later query of its attribute and folding, whatever its constant.
    func signatureExclusions(for signatureTests: [RowProgram.SignatureTest], testingRows rows: Int) -> [PrefixExclusion]
    {
        signatureTests.compactMap { conjunct in
            if conjunct.alternatives.count == 1, let test = conjunct.alternatives.first?.test,
                test.required == .empty, StringSignature.folding(test.options) == 0
            {
                // Without folded values to test, an empty requirement settles nothing.
                return nil
            }
            var alternatives: [PrefixExclusion.SignatureTest] = []
            for alternative in conjunct.alternatives {
                let test = alternative.test
                // A disjunction is settled only where every alternative's column exists.
                guard
                    let column = signatureColumns.column(
                        slot: alternative.slot, folding: StringSignature.folding(test.options), of: self,
                        build: rows >= StringPrefixColumn.rowsWorthBuilding,
                        signer: StringSignature.signer(folding: test.options))
                else { return nil }
                alternatives.append(
                    PrefixExclusion.SignatureTest(
                        column: column, required: test.required, negated: alternative.negated,
                        matchesFolded: test.matchesFolded))
            }
            return PrefixExclusion(anyOf: alternatives, holdsBit: conjunct.holdsBit)
        }
    }
}
