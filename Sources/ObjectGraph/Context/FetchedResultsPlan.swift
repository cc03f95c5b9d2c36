/// A fetch request compiled so that a ``FetchedResultsController`` can update its results from
/// the objects that changed, one at a time: the predicate to decide membership, the sort to find
/// positions, and the entities whose changes it cannot follow object by object.
///
/// There is no plan (every round re-runs the fetch) for requests whose results do not follow
/// from each object alone: a fetch limit or offset (an insert pushes another object out), a
/// child context (its ancestors' unsaved changes reach it without a record), an entity with
/// sub-entities fetched with them, a `#Predicate` part evaluated in Swift, and key paths that
/// lead back to the entity itself (`basket.fruits.price`: a change to one fruit changes another's
/// membership).
struct FetchedResultsPlan {
    let info: EntityInfo
    let predicate: CompiledPredicate?
    let sort: CompiledSort?
    let includesPendingChanges: Bool
    /// The inheritance roots (entity indexes) of the entities that the predicate, the sort or the
    /// section key path read through relationships: a change to one of their objects may change
    /// many results, so such a round re-runs the fetch.
    let dependencies: Set<Int>

    /// The plan of `request` in `context`, or `nil` if its results cannot be updated object by
    /// object.
    ///
    /// - Throws: what compiling the request's predicate and sort descriptors throws.
    init?<Result: ManagedObject>(
        _ request: FetchRequest<Result>, sectionNameKeyPath: String?, context: ManagedContext
    ) throws {
        let model = context.model
        let info = try request.entity(in: model)
        guard context.parent == nil, request.fetchLimit <= 0, request.fetchOffset <= 0,
            !(request.includesSubentities && info.hasSubentities), request.predicate?.swiftTerm == nil
        else { return nil }
        let predicate = try request.predicate.map { try CompiledPredicate($0, entity: info, model: model) }
        let sort =
            try request.sortDescriptors.isEmpty
            ? nil : CompiledSort(request.sortDescriptors, entity: info, model: model)
        var roots: Set<Int> = []
        if let predicate, !predicate.isRowLocal, let expression = request.predicate?.expression {
            guard Self.collect(expression, from: info, model: model, into: &roots) else { return nil }
        }
        var paths = request.sortDescriptors.map(\.key)
        if let sectionNameKeyPath { paths.append(sectionNameKeyPath) }
        for path in paths {
            let components = path.split(separator: ".").map(String.init)
            guard Self.follow(components, from: info, model: model, into: &roots) else { return nil }
        }
        guard !roots.contains(Self.root(of: info, model: model)) else { return nil }
        self.info = info
        self.predicate = predicate
        self.sort = sort
        self.includesPendingChanges = request.includesPendingChanges
        self.dependencies = roots
    }

    /// The index of the root of `info`'s inheritance hierarchy.
    static func root(of info: EntityInfo, model: ManagedObjectModel) -> Int {
        var index = info.index
        while let parent = model.infos[index].lineage.superentityIndex { index = parent }
        return index
    }

    /// Adds the roots of the entities `expression` reads through relationships; false for a
    /// construct it cannot follow (a `SUBQUERY`, a variable), which leaves the request without a plan.
    private static func collect(
        _ expression: PredicateExpression, from info: EntityInfo, model: ManagedObjectModel, into roots: inout Set<Int>
    ) -> Bool {
        switch expression {
        case .constant: return true
        case .not(let operand): return collect(operand, from: info, model: model, into: &roots)
        case .and(let operands), .or(let operands):
            return operands.allSatisfy { collect($0, from: info, model: model, into: &roots) }
        case .comparison(let comparison):
            return collect(comparison.lhs, from: info, model: model, into: &roots)
                && collect(comparison.rhs, from: info, model: model, into: &roots)
        }
    }

    private static func collect(
        _ operand: PredicateExpression.Operand, from info: EntityInfo, model: ManagedObjectModel,
        into roots: inout Set<Int>
    ) -> Bool {
        switch operand {
        case .constant, .evaluatedObject: return true
        case .keyPath(.evaluatedObject, let components):
            return follow(components, from: info, model: model, into: &roots)
        case .aggregate(let operands), .function(_, let operands):
            return operands.allSatisfy { collect($0, from: info, model: model, into: &roots) }
        case .collection(let base, _, let path):
            return path.isEmpty && collect(base, from: info, model: model, into: &roots)
        case .ternary(let condition, let first, let second):
            return collect(condition, from: info, model: model, into: &roots)
                && collect(first, from: info, model: model, into: &roots)
                && collect(second, from: info, model: model, into: &roots)
        case .index(let base, _): return collect(base, from: info, model: model, into: &roots)
        case .keyPath, .variable, .subquery: return false
        }
    }

    /// Adds the roots of the entities a key path from `info` passes into; false for a component
    /// that names no property (other than an `@` operator or `objectID` after the last hop).
    private static func follow(
        _ components: [String], from info: EntityInfo, model: ManagedObjectModel, into roots: inout Set<Int>
    ) -> Bool {
        var entity = info
        for component in components {
            guard let slot = entity.slotByName[component] else {
                return component.hasPrefix("@") || component == "objectID" || component == "self"
            }
            guard !entity.isAttribute(slot) else { return true }
            let destination = model.infos[entity.relationship(at: slot).destinationIndex]
            roots.insert(root(of: destination, model: model))
            entity = destination
        }
        return true
    }
}
