extension LikePattern {
    /// What a value must contain to match: the signature of each run of literal characters.
    var requiredSignature: StringSignature {
        var required = StringSignature.empty
        var run = ""
        func flush() {
            let signature = StringSignature.of(folded: run)
            required.scalars |= signature.scalars
            required.pairs |= signature.pairs
            run = ""
        }
        for element in elements {
            if case .character(let character) = element {
                run.append(character)
            } else {
                flush()
            }
        }
        flush()
        return required
    }
}
