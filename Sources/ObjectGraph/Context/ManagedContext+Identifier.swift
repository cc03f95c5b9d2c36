extension ManagedContext {
    /// Tells contexts apart in save notifications: unique among one container's contexts.
    public typealias Identifier = ContextIdentifier
}
