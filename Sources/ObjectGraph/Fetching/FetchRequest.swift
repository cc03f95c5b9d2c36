/// A description of the objects to fetch: which entity, which of its objects, in what order,
/// how many, from where.
///
/// For example:
/// ```swift
/// var request = Fruit.fetchRequest()
/// request.predicate = try FetchPredicate(format: "price < %d", 200)
/// request.sortDescriptors = [SortDescriptor(key: "name")]
/// request.fetchLimit = 10
/// let fruits = try context.fetch(request)
/// ```
///
/// Core Data: `NSFetchRequest`.
public struct FetchRequest<Result: ManagedObject>: Sendable, CustomStringConvertible {
    /// The entity to fetch; `nil` means the entity of `Result`.
    public var entityName: String?
    /// The condition the objects must meet; `nil` for every object of the entity.
    ///
    /// Core Data: `NSFetchRequest.predicate`.
    public var predicate: FetchPredicate?
    /// The order of the results; with none, objects come in key (insertion) order.
    ///
    /// Core Data: `NSFetchRequest.sortDescriptors`.
    public var sortDescriptors: [SortDescriptor] = []
    /// The most objects to return; 0 for no limit.
    public var fetchLimit: Int = 0
    /// How many matching objects to skip before the first one returned.
    public var fetchOffset: Int = 0
    /// Whether unsaved inserts are included and objects pending deletion left out.
    public var includesPendingChanges = true
    /// Whether the objects of the entity's sub-entities (at any depth) are fetched and counted
    /// with the entity's own; `false` for the entity's own objects only.
    ///
    /// Core Data: `NSFetchRequest.includesSubentities`.
    public var includesSubentities = true
    /// How many objects ``ManagedContext/fetchBatches(_:)`` brings in at a time; 0 (the default)
    /// for its default page size. ``ManagedContext/fetch(_:)`` returns the same objects whatever
    /// its value (a negative one counts as 0).
    ///
    /// Core Data: `NSFetchRequest.fetchBatchSize`.
    public var fetchBatchSize: Int = 0
    /// The attributes and to-one relationships (key paths through to-one relationships allowed)
    /// that ``ManagedContext/fetchRows(_:)`` returns; `nil` for every attribute
    /// and to-one relationship. Object and ID fetches ignore it.
    ///
    /// Core Data: `NSFetchRequest.propertiesToFetch`.
    public var propertiesToFetch: [String]?
    /// The aggregates that ``ManagedContext/fetchDictionaries(_:)`` computes, by name, over each
    /// group of `propertiesToGroupBy` (or over all matching objects).
    ///
    /// Core Data: the `NSExpressionDescription`s in `propertiesToFetch`.
    public var expressionsToFetch: [ExpressionDescription] = []
    /// The properties whose values form the groups of ``ManagedContext/fetchDictionaries(_:)``:
    /// one dictionary per distinct combination, with the aggregates of its objects.
    ///
    /// Core Data: `NSFetchRequest.propertiesToGroupBy`.
    public var propertiesToGroupBy: [String]?
    /// A condition on each group's dictionary (its grouped properties, and its aggregates by name
    /// or as `$name`), applied after grouping; requires `propertiesToGroupBy`.
    ///
    /// Core Data: `NSFetchRequest.havingPredicate`.
    public var havingPredicate: FetchPredicate?
    /// Whether ``ManagedContext/fetchDictionaries(_:)`` returns each distinct dictionary once.
    ///
    /// Core Data: `NSFetchRequest.returnsDistinctResults`.
    public var returnsDistinctResults = false

    /// A request for the objects of `Result`'s entity that match `predicate`, in the order of
    /// `sortDescriptors`.
    public init(predicate: FetchPredicate? = nil, sortDescriptors: [SortDescriptor] = []) {
        self.entityName = nil
        self.predicate = predicate
        self.sortDescriptors = sortDescriptors
    }

    /// A request for the objects of the named entity that match `predicate`, in the order of
    /// `sortDescriptors`.
    public init(entityName: String, predicate: FetchPredicate? = nil, sortDescriptors: [SortDescriptor] = []) {
        self.entityName = entityName
        self.predicate = predicate
        self.sortDescriptors = sortDescriptors
    }

    /// The request's entity in `model`, checked against `Result`.
    func entity(in model: ManagedObjectModel) throws -> EntityInfo {
        let info: EntityInfo?
        if let entityName {
            info = model.info(named: entityName)
        } else {
            info = model.info(forClass: Result.self)
        }
        guard let info else {
            throw PersistenceError.invalidFetchRequest(
                "The request's entity '\(entityName ?? "\(Result.self)")' is not in the model. "
                    + "Add it to the model or fetch an entity the model contains.")
        }
        guard info.managedObjectClass is Result.Type else {
            throw PersistenceError.invalidFetchRequest(
                "Entity '\(info.name)' is represented by \(info.managedObjectClass), which is not a \(Result.self). "
                    + "Use FetchRequest<\(info.managedObjectClass)> or FetchRequest<ManagedObject>(entityName:).")
        }
        return info
    }

    /// A readable description, for logs and debugging.
    public var description: String {
        var parts = ["entity: \(entityName ?? "\(Result.self)")"]
        if let predicate { parts.append("predicate: \(predicate)") }
        if !sortDescriptors.isEmpty {
            parts.append("sort: \(sortDescriptors.map(\.description).joined(separator: ", "))")
        }
        if fetchLimit > 0 { parts.append("limit: \(fetchLimit)") }
        if fetchOffset > 0 { parts.append("offset: \(fetchOffset)") }
        if fetchBatchSize > 0 { parts.append("batch size: \(fetchBatchSize)") }
        if !includesPendingChanges { parts.append("committed only") }
        if !includesSubentities { parts.append("without sub-entities") }
        return "FetchRequest(\(parts.joined(separator: ", ")))"
    }
}

extension ManagedObject: FetchableObject {}
