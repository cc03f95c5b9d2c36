extension StoreCoordinator.Commit {
    /// A commit's inserts, in order: either written out as ``Write``s, or made one at a time, on
    /// each read, from where the caller keeps them (a context's inserted objects), so that a save
    /// of many new objects holds no record per object beside the object and its new row.
    ///
    /// A reader must give the same write for a position every time it is asked, for as long as
    /// the commit runs: a context changes nothing while it waits for its commit.
    struct Inserts: RandomAccessCollection, ExpressibleByArrayLiteral {
        typealias Write = StoreCoordinator.Commit.Write

        private enum Source {
            case writes([Write])
            case reader(count: Int, write: (Int) -> Write)
        }

        private let source: Source

        /// The inserts `writes` lists.
        init(_ writes: [Write]) {
            source = .writes(writes)
        }

        /// `count` inserts, the one at position `i` being `write(i)`.
        init(count: Int, write: @escaping (Int) -> Write) {
            source = .reader(count: count, write: write)
        }

        init(arrayLiteral writes: Write...) {
            self.init(writes)
        }

        var startIndex: Int { 0 }

        var endIndex: Int {
            switch source {
            case .writes(let writes): writes.count
            case .reader(let count, _): count
            }
        }

        subscript(position: Int) -> Write {
            switch source {
            case .writes(let writes):
                return writes[position]
            case .reader(let count, let write):
                // A programmer error, not reachable by input: positions come from this collection.
                precondition(position >= 0 && position < count, "An insert's position is within the commit.")
                return write(position)
            }
        }
    }
}
