extension XcodeModelParser {
    /// Checks what spans entities: parents exist and form no cycle; an inverse that does not point
    /// back is dropped (with a note), as is a uniqueness constraint naming no attribute. Properties
    /// are looked up along the parent chain, since each entity holds only its own.
    mutating func resolve(_ model: inout XcodeModel) throws {
        var byName: [String: XcodeModel.Entity] = [:]
        for entity in model.entities where byName[entity.name] == nil { byName[entity.name] = entity }
        for entity in model.entities {
            var seen: Set<String> = [entity.name]
            var current = entity
            while let parent = current.description.superentityName {
                guard let next = byName[parent] else {
                    throw PersistenceError.xcodeModelProblem(
                        file: file, line: nil, entity: entity.name, property: nil,
                        problem: "its parent entity '\(parent)' is not in the model",
                        fix: "Add that entity or clear the parent in Xcode's model editor.")
                }
                guard seen.insert(parent).inserted else {
                    throw PersistenceError.xcodeModelProblem(
                        file: file, line: nil, entity: entity.name, property: nil,
                        problem: "its parent entities form a cycle through '\(parent)'",
                        fix: "Clear one of the parents in Xcode's model editor.")
                }
                current = next
            }
        }
        func lineage(_ name: String) -> [XcodeModel.Entity] {
            var chain: [XcodeModel.Entity] = []
            var next = byName[name]
            while let entity = next {
                chain.append(entity)
                next = entity.description.superentityName.flatMap { byName[$0] }
            }
            return chain
        }
        func isRelated(_ first: String, _ second: String) -> Bool {
            lineage(first).contains { $0.name == second } || lineage(second).contains { $0.name == first }
        }
        for entityIndex in model.entities.indices {
            let entity = model.entities[entityIndex]
            var relationships = entity.description.relationships
            for relationshipIndex in relationships.indices {
                let relationship = relationships[relationshipIndex]
                guard byName[relationship.destination] != nil else {
                    throw PersistenceError.xcodeModelProblem(
                        file: file, line: nil, entity: entity.name, property: relationship.name,
                        problem: "its destination entity '\(relationship.destination)' is not in the model",
                        fix: "Choose an existing destination in Xcode's model editor.")
                }
                guard let inverseName = relationship.inverse else { continue }
                let inverse = lineage(relationship.destination).lazy.compactMap {
                    $0.description.relationshipsByName[inverseName]
                }.first
                let label = "'\(entity.name).\(relationship.name)'"
                if let inverse, inverse.inverse == relationship.name, isRelated(inverse.destination, entity.name) {
                    continue
                }
                notes.append(
                    inverse == nil
                        ? "Relationship \(label) names the inverse '\(relationship.destination).\(inverseName)', "
                            + "which does not exist; it is read without an inverse."
                        : "Relationship \(label) names the inverse '\(relationship.destination).\(inverseName)', "
                            + "which does not point back to it; it is read without an inverse.")
                relationships[relationshipIndex].inverse = nil
                if let detail = model.entities[entityIndex].relationships.firstIndex(where: {
                    $0.name == relationship.name
                }) {
                    model.entities[entityIndex].relationships[detail].description.inverse = nil
                }
            }
            model.entities[entityIndex].description.relationships = relationships
            let attributeNames = Set(lineage(entity.name).flatMap { $0.description.attributes.map(\.name) })
            model.entities[entityIndex].description.uniquenessConstraints = entity.description.uniquenessConstraints
                .filter { constraint in
                    let unknown = constraint.filter { !attributeNames.contains($0) }
                    guard unknown.isEmpty else {
                        notes.append(
                            "A uniqueness constraint of '\(entity.name)' names \(unknown.map { "'\($0)'" }.joined(separator: ", ")), "
                                + "not a stored attribute of the entity; the constraint is dropped.")
                        return false
                    }
                    return true
                }
        }
    }
}
