extension CompiledPredicate {
    /// Whether a fetch candidate matches; its ID is made only for predicates that compare `SELF`.
    func matches(_ candidate: FetchCandidate, resolver: PredicateResolver) -> Bool {
        let id = needsObjectID ? ObjectID(entityName: entity.name, key: candidate.key) : nil
        return matches(candidate.values, objectID: id, resolver: resolver)
    }
}
