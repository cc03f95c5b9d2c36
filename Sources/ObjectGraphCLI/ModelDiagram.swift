import ObjectGraph

/// A model drawn as a class diagram, in Mermaid or Graphviz dot.
///
/// Each entity is a box with its attributes (`type name`, `?` when optional); each pair of
/// inverse relationships is one line with the cardinality at each end (`0..1`, `1`, `*`,
/// `1..*`, `0..5`) and the names and delete rules as its label; a relationship without an
/// inverse is an arrow; a parent entity is joined to each sub-entity by an inheritance arrow.
struct ModelDiagram {
    let entities: [EntityDescription]

    // MARK: - Mermaid

    func mermaid() -> [String] {
        var lines = ["classDiagram"]
        for entity in entities {
            let name = Self.mermaidName(entity.name)
            if entity.attributes.isEmpty && !entity.isAbstract {
                lines.append("    class \(name)")
                continue
            }
            lines.append("    class \(name) {")
            if entity.isAbstract { lines.append("        <<abstract>>") }
            for attribute in entity.attributes {
                lines.append("        \(attribute.type.rawValue) \(attribute.name)\(attribute.isOptional ? "?" : "")")
            }
            lines.append("    }")
        }
        for entity in entities {
            if let parent = entity.superentityName {
                lines.append("    \(Self.mermaidName(parent)) <|-- \(Self.mermaidName(entity.name))")
            }
        }
        for link in links() {
            let source = Self.mermaidName(link.source.entity)
            let target = Self.mermaidName(link.target.entity)
            if let back = link.back {
                lines.append(
                    "    \(source) \"\(Self.cardinality(back))\" -- \"\(Self.cardinality(link.forward))\" \(target) : "
                        + "\(Self.label(link.forward)) / \(Self.label(back))")
            } else {
                lines.append(
                    "    \(source) --> \"\(Self.cardinality(link.forward))\" \(target) : \(Self.label(link.forward))")
            }
        }
        return lines
    }

    /// An entity name as a Mermaid class name (letters, digits and `_`).
    private static func mermaidName(_ name: String) -> String {
        String(name.map { $0.isLetter || $0.isNumber || $0 == "_" ? $0 : "_" })
    }

    // MARK: - Graphviz

    func dot() -> [String] {
        var lines = [
            "digraph Model {", "    rankdir=LR;", "    node [shape=record, fontname=\"Helvetica\", fontsize=10];",
            "    edge [fontname=\"Helvetica\", fontsize=9];",
        ]
        for entity in entities {
            let title = (entity.isAbstract ? "«abstract»\\n" : "") + Self.recordText(entity.name)
            let attributes = entity.attributes.map { attribute in
                Self.recordText("\(attribute.name): \(attribute.type.rawValue)\(attribute.isOptional ? "?" : "")")
                    + "\\l"
            }
            lines.append("    \(Self.quoted(entity.name)) [label=\"{\(title)|\(attributes.joined())}\"];")
        }
        for entity in entities {
            if let parent = entity.superentityName {
                lines.append(
                    "    \(Self.quoted(entity.name)) -> \(Self.quoted(parent)) [arrowhead=empty, style=dashed];")
            }
        }
        for link in links() {
            let head = link.forward.isToMany ? "crow" : "tee"
            if let back = link.back {
                lines.append(
                    "    \(Self.quoted(link.source.entity)) -> \(Self.quoted(link.target.entity)) [dir=both, "
                        + "arrowhead=\(head), arrowtail=\(back.isToMany ? "crow" : "tee"), "
                        + "headlabel=\(Self.quoted(Self.cardinality(link.forward))), "
                        + "taillabel=\(Self.quoted(Self.cardinality(back))), "
                        + "label=\(Self.quoted("\(Self.label(link.forward)) / \(Self.label(back))"))];")
            } else {
                lines.append(
                    "    \(Self.quoted(link.source.entity)) -> \(Self.quoted(link.target.entity)) [arrowhead=\(head), "
                        + "headlabel=\(Self.quoted(Self.cardinality(link.forward))), "
                        + "label=\(Self.quoted(Self.label(link.forward)))];")
            }
        }
        lines.append("}")
        return lines
    }

    private static func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    /// Text inside a record label, with the characters records treat specially escaped.
    private static func recordText(_ text: String) -> String {
        var result = ""
        for character in text {
            if "{}|<>\"\\ ".contains(character) && character != " " { result.append("\\") }
            result.append(character)
        }
        return result
    }

    // MARK: - Relationships

    /// One line of the diagram: a relationship and, if it has one, its inverse (drawn once).
    private struct Link {
        var source: (entity: String, name: String)
        var target: (entity: String, name: String)
        var forward: RelationshipDescription
        var back: RelationshipDescription?
    }

    private func links() -> [Link] {
        var drawn: Set<String> = []
        var links: [Link] = []
        for entity in entities {
            for relationship in entity.relationships where !drawn.contains("\(entity.name).\(relationship.name)") {
                drawn.insert("\(entity.name).\(relationship.name)")
                var back: RelationshipDescription?
                if let inverse = relationship.inverse,
                    let target = entities.first(where: { $0.name == relationship.destination }),
                    let found = target.relationships.first(where: { $0.name == inverse })
                {
                    back = found
                    drawn.insert("\(target.name).\(found.name)")
                }
                links.append(
                    Link(
                        source: (entity.name, relationship.name), target: (relationship.destination, back?.name ?? ""),
                        forward: relationship, back: back))
            }
        }
        return links
    }

    /// The number of destination objects: `0..1`, `1`, `*`, `1..*`, `2..5`.
    static func cardinality(_ relationship: RelationshipDescription) -> String {
        guard relationship.isToMany else { return relationship.isOptional ? "0..1" : "1" }
        let minimum = max(relationship.minCount, relationship.isOptional ? 0 : 1)
        let maximum = relationship.maxCount > 0 ? "\(relationship.maxCount)" : "*"
        return minimum == 0 && maximum == "*" ? "*" : "\(minimum)..\(maximum)"
    }

    /// `notes cascade`, `tags ordered`, `owner` (nullify, the default, is not written).
    static func label(_ relationship: RelationshipDescription) -> String {
        var parts = [relationship.name]
        if relationship.isOrdered { parts.append("ordered") }
        switch relationship.deleteRule {
        case .nullify: break
        case .cascade: parts.append("cascade")
        case .deny: parts.append("deny")
        case .noAction: parts.append("no action")
        }
        return parts.joined(separator: " ")
    }
}
