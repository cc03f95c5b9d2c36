extension ManagedContext {
    /// Whether the context keeps every registered object alive. `false` by default: the context
    /// keeps the objects with unsaved changes, and an unchanged object lives as long as the
    /// caller holds it (fetching it again makes a new instance), so that iterating a large store
    /// runs in bounded memory. Set it to keep fetched objects registered whether or not they are
    /// held.
    ///
    /// Core Data: `NSManagedObjectContext.retainsRegisteredObjects`.
    public var retainsRegisteredObjects: Bool {
        get { registry.retained != nil }
        set {
            guard newValue != retainsRegisteredObjects else { return }
            // Released after the registry changed: an object that then leaves memory leaves it.
            let released = registry.retained
            registry.retained =
                newValue ? Dictionary(uniqueKeysWithValues: registry.values.map { (ObjectIdentifier($0), $0) }) : nil
            withExtendedLifetime(released) {}
        }
    }
}
