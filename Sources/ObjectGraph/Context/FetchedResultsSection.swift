/// One section of a ``FetchedResultsController``'s results: a run of objects with the same
/// value of the controller's `sectionNameKeyPath`.
///
/// Core Data: `NSFetchedResultsSectionInfo`.
public struct FetchedResultsSection<Result: ManagedObject> {
    /// The section's name: its objects' value of the section key path as text (`""` for nil).
    ///
    /// Core Data: `NSFetchedResultsSectionInfo.name`.
    public let name: String
    /// The section's index title: the first character of its name, upper-cased (`nil` for an
    /// empty name).
    ///
    /// Core Data: `NSFetchedResultsSectionInfo.indexTitle`.
    public let indexTitle: String?
    /// The section's objects, in the results' order.
    ///
    /// Core Data: `NSFetchedResultsSectionInfo.objects`.
    public let objects: [Result]

    /// The number of objects in the section.
    ///
    /// Core Data: `NSFetchedResultsSectionInfo.numberOfObjects`.
    public var numberOfObjects: Int { objects.count }

    /// A section named `name` of `objects`.
    init(name: String, objects: [Result]) {
        self.name = name
        self.indexTitle = name.first.map { String($0).uppercased() }
        self.objects = objects
    }
}
