extension Array where Element == ManagedObject {
    /// The same objects in an array of `Result`, every one of which is known to be a `Result`
    /// (the caller checked the entities' classes).
    ///
    /// O(*n*): one pass that writes each reference into a new buffer of `Result`, so that the
    /// fetch loop itself stays specialized for `ManagedObject` (a loop generic over `Result`
    /// looked up `Array<Result>`'s metadata for each element it appended). No private layout of
    /// `Array` is assumed; `unsafeDowncast` checks each element's class in debug builds.
    func downcast<Result: ManagedObject>(to type: Result.Type) -> [Result] {
        withUnsafeBufferPointer { source in
            [Result](unsafeUninitializedCapacity: source.count) { target, initialized in
                for index in source.indices {
                    target.initializeElement(at: index, to: unsafeDowncast(source[index], to: Result.self))
                }
                initialized = source.count
            }
        }
    }
}
