import Foundation

/// Turns the element tree of an Xcode model's `contents` file into an ``XcodeModel``.
///
/// The XML's grammar (Xcode 4 to 16): a `model` root holding `entity` elements (each with
/// `attribute`, `relationship`, `fetchedProperty`, `fetchIndex`, `uniquenessConstraints`,
/// `compoundIndexes` and `userInfo` children), `configuration`s with `memberEntity`s, model-level
/// `fetchRequest` templates, and `elements` (diagram positions, ignored).
struct XcodeModelParser {
    let file: URL?
    let options: XcodeModel.Options
    var notes: [String] = []

    init(file: URL?, options: XcodeModel.Options) {
        self.file = file
        self.options = options
    }

    mutating func model(from root: MarkupElement, name: String) throws -> XcodeModel {
        guard root.name == "model" else {
            throw PersistenceError.unreadableModel(
                file ?? URL(fileURLWithPath: name),
                problem: "its root element is '\(root.name)', not 'model'; it is not an Xcode model's contents file")
        }
        var entities: [XcodeModel.Entity] = []
        var configurations: [XcodeModel.Configuration] = []
        var templates: [XcodeModel.FetchRequestTemplate] = []
        for child in root.children {
            switch child.name {
            case "entity":
                entities.append(try entity(child))
            case "configuration":
                configurations.append(
                    XcodeModel.Configuration(
                        name: child[attribute: "name"] ?? "",
                        entityNames: child.children(named: "memberEntity").compactMap { $0[attribute: "name"] },
                        isUsedWithCloudKit: child[attribute: "usedWithCloudKit"] == "YES"))
            case "fetchRequest":
                templates.append(
                    XcodeModel.FetchRequestTemplate(
                        name: child[attribute: "name"] ?? "", entityName: child[attribute: "entity"] ?? "",
                        predicateFormat: child[attribute: "predicateString"],
                        fetchLimit: child[attribute: "fetchLimit"].flatMap { Int($0) } ?? 0))
            case "elements", "composite":
                // Diagram positions; composite definitions are read with the attributes that use them.
                break
            default:
                notes.append("The model's element '\(child.name)' (line \(child.line)) is not read.")
            }
        }
        var result = XcodeModel(
            name: name, fileURL: file, entities: entities, configurations: configurations,
            fetchRequestTemplates: templates,
            versionIdentifier: root[attribute: "userDefinedModelVersionIdentifier"].flatMap { $0.isEmpty ? nil : $0 },
            notes: [])
        try resolve(&result)
        result.notes = notes
        return result
    }

    // MARK: - Entities

    private mutating func entity(_ element: MarkupElement) throws -> XcodeModel.Entity {
        guard let name = element[attribute: "name"], !name.isEmpty else {
            throw PersistenceError.xcodeModelProblem(
                file: file, line: element.line, entity: nil, property: nil,
                problem: "an entity has no name", fix: "Name it in Xcode's model editor.")
        }
        var attributes: [XcodeModel.Attribute] = []
        var relationships: [XcodeModel.Relationship] = []
        var fetched: [XcodeModel.FetchedProperty] = []
        var indexes: [XcodeModel.FetchIndex] = []
        var constraints: [[String]] = []
        var userInfo: [String: String] = [:]
        for child in element.children {
            switch child.name {
            case "attribute":
                if let attribute = try attribute(child, entity: name) { attributes.append(attribute) }
            case "relationship":
                if let relationship = try relationship(child, entity: name) { relationships.append(relationship) }
            case "fetchedProperty":
                fetched.append(try fetchedProperty(child, entity: name))
            case "fetchIndex":
                indexes.append(fetchIndex(child))
            case "compoundIndexes":
                for (offset, compound) in child.children(named: "compoundIndex").enumerated() {
                    indexes.append(
                        XcodeModel.FetchIndex(
                            name: "compoundIndex\(offset + 1)",
                            elements: compound.children(named: "index").compactMap { index in
                                index[attribute: "value"].map { .init(property: $0, isAscending: true) }
                            }))
                }
            case "uniquenessConstraints":
                for constraint in child.children(named: "uniquenessConstraint") {
                    let names = constraint.children(named: "constraint").compactMap { $0[attribute: "value"] }
                    if !names.isEmpty { constraints.append(names) }
                }
            case "userInfo":
                userInfo = Self.userInfo(child)
            default:
                notes.append("Entity '\(name)': the element '\(child.name)' (line \(child.line)) is not read.")
            }
        }
        for index in indexes where index.elements.count == 1 {
            if let slot = attributes.firstIndex(where: { $0.name == index.elements[0].property }) {
                attributes[slot].description.isIndexed = true
            }
        }
        for index in indexes where index.elements.count > 1 {
            notes.append(
                "Entity '\(name)': the compound fetch index '\(index.name)' is kept in fetchIndexes; the model "
                    + "indexes single attributes only.")
        }
        var description = EntityDescription(
            name: name, attributes: attributes.filter { !$0.isTransient }.map(\.description),
            relationships: relationships.map(\.description), uniquenessConstraints: constraints, objectClass: nil)
        description.superentityName = element[attribute: "parentEntity"].flatMap { $0.isEmpty ? nil : $0 }
        description.isAbstract = element[attribute: "isAbstract"] == "YES"
        description.renamingIdentifier = element[attribute: "elementID"].flatMap { $0.isEmpty ? nil : $0 }
        for transient in attributes where transient.isTransient {
            notes.append(
                "Entity '\(name)': the transient attribute '\(transient.name)' is kept out of the model and its "
                    + "stores (listed in transientAttributes).")
        }
        return XcodeModel.Entity(
            description: description, className: Self.className(element[attribute: "representedClassName"]),
            attributes: attributes, relationships: relationships, fetchedProperties: fetched, fetchIndexes: indexes,
            userInfo: userInfo)
    }

    /// `representedClassName` without a module prefix or Xcode's "current module" dot.
    static func className(_ raw: String?) -> String? {
        guard let raw, !raw.isEmpty else { return nil }
        let name = raw.split(separator: ".").last.map(String.init) ?? raw
        return name.isEmpty || name == "NSManagedObject" ? nil : name
    }

    static func userInfo(_ element: MarkupElement) -> [String: String] {
        var info: [String: String] = [:]
        for entry in element.children(named: "entry") {
            if let key = entry[attribute: "key"] { info[key] = entry[attribute: "value"] ?? "" }
        }
        return info
    }

    // MARK: - Relationships, fetched properties, indexes

    private mutating func relationship(_ element: MarkupElement, entity: String) throws -> XcodeModel.Relationship? {
        let name = element[attribute: "name"] ?? ""
        guard let destination = element[attribute: "destinationEntity"], !destination.isEmpty else {
            throw PersistenceError.xcodeModelProblem(
                file: file, line: element.line, entity: entity, property: name,
                problem: "the relationship has no destination entity",
                fix: "Choose its destination in Xcode's model editor, or delete it.")
        }
        let isToMany = element[attribute: "toMany"] == "YES"
        var isOrdered = element[attribute: "ordered"] == "YES"
        if isOrdered && !isToMany {
            notes.append("Relationship '\(entity).\(name)' is ordered but to-one; it is read as unordered.")
            isOrdered = false
        }
        let deleteRule: DeleteRule
        switch element[attribute: "deletionRule"] ?? "Nullify" {
        case "Nullify": deleteRule = .nullify
        case "Cascade": deleteRule = .cascade
        case "Deny": deleteRule = .deny
        case "No Action": deleteRule = .noAction
        case let other:
            throw PersistenceError.xcodeModelProblem(
                file: file, line: element.line, entity: entity, property: name,
                problem: "the delete rule '\(other)' is not one of Nullify, Cascade, Deny, No Action",
                fix: "Choose a delete rule in Xcode's model editor.")
        }
        // Xcode writes minCount="1" maxCount="1" on old to-one relationships: counts apply to
        // to-many relationships only.
        let minCount = isToMany ? max(0, element[attribute: "minCount"].flatMap { Int($0) } ?? 0) : 0
        var maxCount = isToMany ? max(0, element[attribute: "maxCount"].flatMap { Int($0) } ?? 0) : 0
        if maxCount > 0 && minCount > maxCount {
            notes.append(
                "Relationship '\(entity).\(name)' has a minimum count above its maximum; the maximum is dropped.")
            maxCount = 0
        }
        if element[attribute: "transient"] == "YES" {
            notes.append(
                "Relationship '\(entity).\(name)' is transient; it is read as a stored relationship, since the "
                    + "model has no transient relationships.")
        }
        let description = RelationshipDescription(
            name: name, destination: destination,
            inverse: element[attribute: "inverseName"].flatMap { $0.isEmpty ? nil : $0 }, isToMany: isToMany,
            isOrdered: isOrdered, isOptional: element[attribute: "optional"] == "YES", deleteRule: deleteRule,
            minCount: minCount, maxCount: maxCount,
            renamingIdentifier: element[attribute: "elementID"].flatMap { $0.isEmpty ? nil : $0 })
        return XcodeModel.Relationship(
            description: description, inverseEntity: element[attribute: "inverseEntity"],
            userInfo: element.firstChild(named: "userInfo").map(Self.userInfo) ?? [:])
    }

    private mutating func fetchedProperty(_ element: MarkupElement, entity: String) throws
        -> XcodeModel.FetchedProperty
    {
        let name = element[attribute: "name"] ?? ""
        let request = element.firstChild(named: "fetchRequest")
        let property = XcodeModel.FetchedProperty(
            name: name, entityName: request?[attribute: "entity"] ?? "",
            predicateFormat: request?[attribute: "predicateString"])
        try unsupported(
            "fetched property", entity: entity, property: name, line: element.line,
            fix: "Fetch the objects with a FetchRequest where the app reads the property")
        return property
    }

    private func fetchIndex(_ element: MarkupElement) -> XcodeModel.FetchIndex {
        XcodeModel.FetchIndex(
            name: element[attribute: "name"] ?? "",
            elements: element.children(named: "fetchIndexElement").compactMap { item in
                guard let property = item[attribute: "property"] ?? item[attribute: "expression"] else { return nil }
                return .init(property: property, isAscending: item[attribute: "order"] != "descending")
            })
    }

    /// Refuses a property the model has no concept for, or notes it when the options skip them.
    mutating func unsupported(_ kind: String, entity: String, property: String, line: Int, fix: String) throws {
        guard options.skipsUnsupportedProperties else {
            throw PersistenceError.unsupportedModelProperty(
                file: file, line: line, entity: entity, property: property, kind: kind, fix: fix)
        }
        notes.append("Entity '\(entity)': the \(kind) '\(property)' is left out (line \(line)); \(fix.lowercased()).")
    }
}
