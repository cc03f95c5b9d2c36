import Foundation

/// A dictionary fetch resolved against its entity: the properties each dictionary holds, the
/// groups and aggregates, and the checks Core Data makes of such a request.
struct DictionaryFetchPlan {
    /// One aggregate: its description, the values it reads (`nil`: counts objects), how it folds
    /// them and the type of its result.
    struct Aggregate {
        let description: ExpressionDescription
        let property: FetchedProperty?
        let function: AggregateAccumulator.Function
        let resultType: AttributeType?
    }

    /// The properties each dictionary holds (for a grouped fetch, some of the group's keys).
    let properties: [FetchedProperty]
    /// The grouping properties; empty with `isGrouped` for one group of every object.
    let groupKeys: [FetchedProperty]
    /// For each of `properties`, its position in `groupKeys` (grouped fetches).
    let propertyPositions: [Int]
    let aggregates: [Aggregate]
    /// Whether objects are folded into groups (`propertiesToGroupBy` or aggregates are given).
    let isGrouped: Bool
    /// The type of each of `properties` (`nil`: a relationship or a key path, which no sort or
    /// condition on the dictionaries can name).
    let propertyTypes: [AttributeType?]

    init<Result>(_ request: FetchRequest<Result>, entity: EntityInfo, model: ManagedObjectModel) throws {
        let groupBy = request.propertiesToGroupBy.flatMap { $0.isEmpty ? nil : $0 }
        isGrouped = groupBy != nil || !request.expressionsToFetch.isEmpty
        if request.havingPredicate != nil && groupBy == nil {
            throw PersistenceError.invalidDictionaryFetch(
                "has a havingPredicate but no propertiesToGroupBy; a having condition filters groups. "
                    + "Group the request, or move the condition into its predicate", entity: entity.name, key: nil)
        }
        if let groupBy {
            groupKeys = try FetchedProperty.resolve(groupBy, entity: entity, model: model)
            let names = groupKeys.map(\.key)
            let fetched = try FetchedProperty.resolve(request.propertiesToFetch ?? names, entity: entity, model: model)
            propertyPositions = try fetched.map { property in
                guard let position = names.firstIndex(of: property.key) else {
                    throw PersistenceError.invalidDictionaryFetch(
                        "fetches '\(property.key)', which is neither grouped nor aggregated. Add it to "
                            + "propertiesToGroupBy or remove it from propertiesToFetch", entity: entity.name,
                        key: property.key)
                }
                return position
            }
            properties = fetched
        } else if isGrouped {
            groupKeys = []
            propertyPositions = []
            if let key = request.propertiesToFetch?.first {
                throw PersistenceError.invalidDictionaryFetch(
                    "fetches '\(key)' beside aggregates without propertiesToGroupBy: one dictionary of all objects "
                        + "has no single value of it. Group by it, or fetch only aggregates", entity: entity.name,
                    key: key)
            }
            properties = []
        } else {
            groupKeys = []
            propertyPositions = []
            properties = try FetchedProperty.resolve(request.propertiesToFetch, entity: entity, model: model)
        }
        propertyTypes = properties.map { Self.attributeType(of: $0.key, entity: entity, model: model) }
        var names = Set(properties.map(\.key))
        aggregates = try request.expressionsToFetch.map { description in
            guard !description.name.isEmpty else {
                throw PersistenceError.invalidDictionaryFetch(
                    "has an expression with an empty name. Name every expression", entity: entity.name, key: nil)
            }
            guard names.insert(description.name).inserted else {
                throw PersistenceError.invalidDictionaryFetch(
                    "returns two values named '\(description.name)'. Give each expression its own name",
                    entity: entity.name, key: description.name)
            }
            return try Self.aggregate(description, entity: entity, model: model)
        }
    }

    private static func aggregate(
        _ description: ExpressionDescription, entity: EntityInfo, model: ManagedObjectModel
    ) throws -> Aggregate {
        guard let keyPath = description.keyPath else {
            guard description.function == .count else {
                throw PersistenceError.invalidDictionaryFetch(
                    "computes \(description.function.rawValue) '\(description.name)' of no key path; only count may "
                        + "omit it (to count objects)", entity: entity.name, key: description.name)
            }
            return Aggregate(
                description: description, property: nil, function: .count(countsObjects: true), resultType: .integer64)
        }
        let property = try FetchedProperty.resolve([keyPath], entity: entity, model: model)[0]
        let type = attributeType(of: keyPath, entity: entity, model: model)
        let function: AggregateAccumulator.Function
        let resultType: AttributeType?
        func refuse(_ what: String) -> PersistenceError {
            .invalidDictionaryFetch(
                "computes \(description.function.rawValue) '\(description.name)' of '\(keyPath)', which is "
                    + "\(type.map { "of type \($0)" } ?? "a relationship"); \(what)", entity: entity.name, key: keyPath)
        }
        switch description.function {
        case .count:
            function = .count(countsObjects: false)
            resultType = .integer64
        case .sum, .average:
            guard let type, [.integer16, .integer32, .integer64, .boolean, .float, .double, .decimal].contains(type)
            else { throw refuse("sum and average take a number attribute") }
            let isAverage = description.function == .average
            function = isAverage ? .average : .sum
            switch type {
            case .decimal: resultType = .decimal
            case .float, .double: resultType = .double
            default: resultType = isAverage ? .double : .integer64
            }
        case .min, .max:
            guard let type,
                [.integer16, .integer32, .integer64, .boolean, .float, .double, .decimal, .date, .string].contains(type)
            else { throw refuse("min and max take a number, date or string attribute") }
            function = description.function == .min ? .min : .max
            resultType = type
        }
        return Aggregate(description: description, property: property, function: function, resultType: resultType)
    }

    /// The attribute type at the end of `keyPath` (already resolved); `nil` for a relationship.
    static func attributeType(of keyPath: String, entity: EntityInfo, model: ManagedObjectModel) -> AttributeType? {
        var current = entity
        let components = keyPath.split(separator: ".").map(String.init)
        for (offset, component) in components.enumerated() {
            guard let slot = current.slotByName[component] else { return nil }
            if current.isAttribute(slot) {
                return offset == components.count - 1 ? current.attribute(at: slot).type : nil
            }
            current = model.infos[current.relationship(at: slot).destinationIndex]
        }
        return nil
    }

    /// The columns of the returned dictionaries as a model of one entity, so that sort
    /// descriptors and a having condition compile against them: each property of one attribute
    /// of the fetched entity, and each aggregate, under its key; other columns under names no
    /// key can spell.
    func resultModel() throws -> (model: ManagedObjectModel, keys: [String]) {
        var attributes: [AttributeDescription] = []
        var keys: [String] = []
        for (index, property) in properties.enumerated() {
            let nameable = propertyTypes[index] != nil && !property.key.contains(".")
            keys.append(property.key)
            attributes.append(
                AttributeDescription(
                    name: nameable ? property.key : "\u{1}\(index)", type: propertyTypes[index] ?? .binary,
                    isOptional: true))
        }
        for (index, aggregate) in aggregates.enumerated() {
            keys.append(aggregate.description.name)
            let nameable = aggregate.resultType != nil && !aggregate.description.name.contains(".")
            attributes.append(
                AttributeDescription(
                    name: nameable ? aggregate.description.name : "\u{1}a\(index)",
                    type: aggregate.resultType ?? .binary, isOptional: true))
        }
        let model = try ManagedObjectModel(entities: [EntityDescription(name: "Result", attributes: attributes)])
        return (model, keys)
    }
}
