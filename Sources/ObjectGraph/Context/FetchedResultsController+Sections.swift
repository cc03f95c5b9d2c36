extension FetchedResultsController {
    /// The results in sections: consecutive objects with the same ``sectionNameKeyPath`` value
    /// form one (sort by that key path first, so that each value makes one section); one section
    /// named `""` of all objects without a key path; `nil` until ``performFetch()``.
    ///
    /// For example:
    /// ```swift
    /// var request = Fruit.fetchRequest()
    /// request.sortDescriptors = [SortDescriptor(key: "basket.label"), SortDescriptor(key: "name")]
    /// let controller = FetchedResultsController(
    ///     fetchRequest: request, context: context, sectionNameKeyPath: "basket.label")
    /// try controller.performFetch()
    /// for section in controller.sections ?? [] { print(section.name, section.numberOfObjects) }
    /// ```
    ///
    /// - Complexity: O(*n*) for *n* results, once per round that changed them.
    ///
    /// Core Data: `NSFetchedResultsController.sections`.
    public var sections: [FetchedResultsSection<Result>]? {
        guard isFetched else { return nil }
        _ = fetchedObjects  // Registers observation.
        if let cached = sectionCache { return cached }
        let made = makeSections()
        sectionCache = made
        return made
    }

    /// The index titles of the sections, each once, in section order.
    ///
    /// Core Data: `NSFetchedResultsController.sectionIndexTitles`.
    public var sectionIndexTitles: [String] {
        var seen: Set<String> = []
        return (sections ?? []).compactMap(\.indexTitle).filter { seen.insert($0).inserted }
    }

    /// The section and the index within it of `object`, or `nil` if it is not in the results.
    ///
    /// - Complexity: O(*n*).
    ///
    /// Core Data: `NSFetchedResultsController.indexPath(forObject:)`.
    public func indexPath(of object: Result) -> (section: Int, item: Int)? {
        for (section, info) in (sections ?? []).enumerated() {
            if let item = info.objects.firstIndex(where: { $0 === object }) { return (section, item) }
        }
        return nil
    }

    /// The section name of `object`: its value of `keyPath` as text, `""` for nil (and for a
    /// key path that cannot be read, which ``performFetch()`` has already refused).
    static func sectionName(of object: Result, keyPath: String) -> String {
        guard let value = try? object.value(forKeyPath: keyPath) else { return "" }
        if let text = value as? String { return text }
        return String(describing: value)
    }

    static func sections(of objects: [Result], keyPath: String?) -> [FetchedResultsSection<Result>] {
        guard let keyPath else { return [FetchedResultsSection(name: "", objects: objects)] }
        var sections: [FetchedResultsSection<Result>] = []
        var start = 0
        var name: String?
        for (index, object) in objects.enumerated() {
            let current = sectionName(of: object, keyPath: keyPath)
            if let name, name != current {
                sections.append(FetchedResultsSection(name: name, objects: Array(objects[start..<index])))
                start = index
            }
            name = current
        }
        if let name { sections.append(FetchedResultsSection(name: name, objects: Array(objects[start...]))) }
        return sections
    }

    /// Adds to `changes` the sections of `old` no longer in `new` and those new to it (by name).
    static func addSectionChanges(
        from old: [FetchedResultsSection<Result>], to new: [FetchedResultsSection<Result>],
        into changes: inout FetchedResultsChanges
    ) {
        let oldNames = Set(old.map(\.name))
        let newNames = Set(new.map(\.name))
        changes.deletedSections = old.indices.filter { !newNames.contains(old[$0].name) }
        changes.insertedSections = new.indices.filter { !oldNames.contains(new[$0].name) }
    }
}
