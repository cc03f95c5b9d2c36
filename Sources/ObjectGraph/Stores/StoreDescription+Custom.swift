import Foundation

extension StoreDescription {
    /// A description of a store that another module makes: the extension point through which a
    /// product outside the core library (ObjectGraphPostgres's `.postgres(url:)`, or an app's
    /// own store) offers its store as a value, so that an app picks it from configuration like
    /// the built-in ones.
    ///
    /// `makeStore` is called by ``makeStore()`` with the description as it is then (so it sees
    /// ``isReadOnly`` and ``migration`` as the caller set them). Two custom descriptions are
    /// equal when their `identity` (by default `name`), ``url``, ``isReadOnly`` and
    /// ``migration`` are: give each distinct store a distinct identity.
    ///
    /// For example:
    /// ```swift
    /// extension StoreDescription {
    ///     static func remote(_ endpoint: URL) -> StoreDescription {
    ///         .custom("remote store at \(endpoint.host ?? "?")", identity: endpoint.absoluteString) { description in
    ///             RemoteStore(endpoint: endpoint, isReadOnly: description.isReadOnly)
    ///         }
    ///     }
    /// }
    /// ```
    ///
    /// Core Data: `NSPersistentStoreDescription.type` naming a store class registered with
    /// `NSPersistentStoreCoordinator.registerStoreClass(_:type:)`, without a global registry.
    public static func custom(
        _ name: String, identity: String? = nil, url: URL? = nil,
        makeStore: @escaping @Sendable (StoreDescription) -> any PersistentStore
    ) -> StoreDescription {
        var description = StoreDescription.inMemory
        description.kind = .custom
        description.url = url
        description.factory = StoreFactory(name: name, identity: identity ?? name, make: makeStore)
        return description
    }
}
