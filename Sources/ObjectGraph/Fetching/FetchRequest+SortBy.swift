import Foundation

extension FetchRequest {
    /// A request for the objects of `Result`'s entity that match `predicate`, in the order of
    /// Foundation's `sortBy` descriptors.
    ///
    /// For example:
    /// ```swift
    /// let request = FetchRequest<Fruit>(sortBy: [SortDescriptor(\.price, order: .reverse)])
    /// ```
    ///
    /// SwiftData: `FetchDescriptor(predicate:sortBy:)`.
    public init(predicate: FetchPredicate? = nil, sortBy: [Foundation.SortDescriptor<Result>]) {
        self.init(predicate: predicate, sortDescriptors: sortBy.map(FetchSortDescriptor.init(_:)))
    }

    /// The order of the results as Foundation sort descriptors: setting it replaces
    /// ``sortDescriptors`` with their conversions (see ``FetchSortDescriptor/init(_:)``); reading
    /// it gives the Foundation descriptors that ``sortDescriptors`` holds conversions of.
    ///
    /// A key path that reads no stored property of `Result` makes the fetch throw
    /// `PersistenceError.Code.invalidFetchRequest`.
    ///
    /// For example:
    /// ```swift
    /// var request = Fruit.fetchRequest()
    /// request.sortBy = [SortDescriptor(\.name, comparator: .lexical), SortDescriptor(\.price)]
    /// ```
    ///
    /// SwiftData: `FetchDescriptor.sortBy`.
    public var sortBy: [Foundation.SortDescriptor<Result>] {
        get { sortDescriptors.compactMap { $0.foundationDescriptor as? Foundation.SortDescriptor<Result> } }
        set { sortDescriptors = newValue.map(FetchSortDescriptor.init(_:)) }
    }
}
