extension Array where Element == ManagedObject {
    /// The same objects typed as `Result`, every one of which is known to be a `Result`.
    ///
    /// O(1): an array of class references has the same representation whatever its element
    /// class, and the standard library's own checked downcast (`as!`) reuses the buffer the same
    /// way once it has checked each element; the fetch checked the entity's class instead.
    /// (This assumes that representation, not a documented guarantee. No caller's value reaches
    /// it: `entity(in:)` refuses a request whose entity's class is not `Result`.)
    func downcast<Result: ManagedObject>(to type: Result.Type) -> [Result] {
        assert(allSatisfy { $0 is Result }, "Fetched objects are instances of the request's result type.")
        return unsafeBitCast(self, to: [Result].self)
    }
}
