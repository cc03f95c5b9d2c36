/// An object a fetch considers: a committed row or a registered object, with its current values.
struct FetchCandidate {
    let key: Int64
    let values: [StoreValue]
    /// The committed row's version (for a row), or 0.
    let version: Int64
    /// The registered object whose values these are (a pending insert or a changed object),
    /// owned by the layer that made the scan.
    let object: AnyObject?
    /// Whether ``object`` is pending deletion (the scan skips it).
    let isPendingDeletion: Bool
    /// Whether the scan already found that the values match the fetch's predicate.
    let isKnownMatch: Bool

    init(key: Int64, values: [StoreValue], version: Int64, isKnownMatch: Bool = false) {
        self.key = key
        self.values = values
        self.version = version
        self.object = nil
        self.isPendingDeletion = false
        self.isKnownMatch = isKnownMatch
    }

    /// A registered object's candidate: its current `values`, `version` and key.
    init(object: AnyObject, key: Int64, values: [StoreValue], version: Int64, isPendingDeletion: Bool) {
        self.key = key
        self.values = values
        self.version = version
        self.object = object
        self.isPendingDeletion = isPendingDeletion
        self.isKnownMatch = false
    }
}
