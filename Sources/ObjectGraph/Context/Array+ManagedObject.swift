extension Array where Element == ManagedObject {
    /// The same objects in an array of `Result`, every one of which is known to be a `Result`
    /// (the caller checked the entities' classes).
    ///
    /// O(*n*): one pass that copies the references into a new buffer of `Result`, so that the
    /// fetch loop itself stays specialized for `ManagedObject` (a loop generic over `Result`
    /// looked up `Array<Result>`'s metadata for each element it appended). No private layout of
    /// `Array` is assumed: the new buffer is viewed as `ManagedObject` references (class
    /// references share one layout) and filled by a copy specialized for them; copying element
    /// by element as `Result`, unspecialized in a caller's module, took two value-witness calls
    /// per object (60% of making the result of a 100,000-object fetch in a new context, after
    /// the objects). Debug builds check each element's class.
    func downcast<Result: ManagedObject>(to type: Result.Type) -> [Result] {
        assert(allSatisfy { $0 is Result }, "Every object is a \(Result.self).")
        return withUnsafeBufferPointer { source in
            [Result](unsafeUninitializedCapacity: source.count) { target, initialized in
                guard let from = source.baseAddress, let to = target.baseAddress else { return }
                to.withMemoryRebound(to: ManagedObject.self, capacity: source.count) {
                    $0.initialize(from: from, count: source.count)
                }
                initialized = source.count
            }
        }
    }
}
