import Foundation
import ObjectGraph

/// `objectgraph inspect FILE`: the file's kind, format version, size, schema and object counts.
enum InspectCommand {
    static let command = Command(
        name: "inspect",
        summary: "Show a store file's kind, format version, size, schema and object counts.",
        arguments: ["FILE"],
        discussion: """
            Reads FILE (a JSON or binary store; the kind is read from its first bytes) and prints
            its kind and format version, its size, for a binary store the number of frames in its
            log and any torn tail (an incomplete last save), then every entity of its schema with
            its attributes (type, optional, indexed), relationships (cardinality, destination,
            inverse, delete rule) and uniqueness constraints, and the number of objects it stores.
            The file is only read.

            Example: objectgraph inspect fruits.store
            """,
        run: run)

    static func run(_ arguments: Arguments, _ output: Output) throws -> Int32 {
        let path = arguments.positionals[0]
        for line in lines(describing: try StoreFileInspector.inspect(URL(fileURLWithPath: path)), path: path) {
            output.line(line)
        }
        return ExitStatus.success
    }

    /// The report as text lines, naming the file by `path` as the user gave it.
    static func lines(describing report: StoreFileReport, path: String) -> [String] {
        var lines = [
            "file:     \(path)",
            "kind:     \(report.kind), format version \(report.formatVersion)",
            "size:     \(plural(report.fileSize, "byte"))",
        ]
        if let frames = report.frameCount { lines.append("frames:   \(frames)") }
        if let offset = report.tornTailOffset, report.frameCount == 0 {
            lines.append(
                "damaged:  the first frame, at byte \(offset), is cut short or fails its checksum: the file was "
                    + "truncated or overwritten (a crash cannot cause this), and its objects cannot be read")
        } else if let offset = report.tornTailOffset {
            lines.append(
                "torn:     \(plural(report.fileSize - offset, "byte")) from byte \(offset) are an incomplete save; "
                    + "opening the store or 'objectgraph compact' cuts them off")
        }
        lines.append(
            "objects:  \(report.objectCount) in \(plural(report.schema.count, "entity", "entities"))")
        for entity in report.schema {
            lines.append("")
            let count = report.objectCounts[entity.name] ?? 0
            let next = report.nextKeys[entity.name] ?? 1
            lines.append("entity \(entity.name): \(plural(count, "object")), next key \(next)")
            for attribute in entity.attributes { lines.append("  \(describe(attribute))") }
            for relationship in entity.relationships { lines.append("  \(describe(relationship))") }
            for constraint in entity.uniquenessConstraints {
                lines.append("  unique (\(constraint.joined(separator: ", ")))")
            }
        }
        return lines
    }

    /// `name: string, optional, indexed`.
    static func describe(_ attribute: AttributeDescription) -> String {
        var parts = ["\(attribute.name): \(attribute.type)"]
        if attribute.isOptional { parts.append("optional") }
        if attribute.isIndexed { parts.append("indexed") }
        return parts.joined(separator: ", ")
    }

    /// `fruits: to-many Fruit, inverse basket, delete rule cascade, count 1...5`.
    static func describe(_ relationship: RelationshipDescription) -> String {
        let cardinality =
            relationship.isToMany ? (relationship.isOrdered ? "ordered to-many" : "to-many") : "to-one"
        var parts = [
            "\(relationship.name): \(cardinality) \(relationship.destination)",
            "inverse \(relationship.inverse ?? "none")",
            "delete rule \(relationship.deleteRule)",
        ]
        if !relationship.isToMany && !relationship.isOptional { parts.append("required") }
        if relationship.minCount > 0 || relationship.maxCount > 0 {
            parts.append(
                "count \(relationship.minCount)...\(relationship.maxCount > 0 ? "\(relationship.maxCount)" : "")")
        }
        return parts.joined(separator: ", ")
    }

    static func plural(_ count: Int, _ singular: String, _ plural: String? = nil) -> String {
        "\(count) \(count == 1 ? singular : plural ?? singular + "s")"
    }
}
