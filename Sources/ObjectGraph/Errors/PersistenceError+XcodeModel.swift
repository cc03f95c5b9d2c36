import Foundation

extension PersistenceError {
    /// Something an Xcode model's XML says that no model can hold (a relationship without a
    /// destination, an unknown type or delete rule, a parent entity that does not exist).
    static func xcodeModelProblem(
        file: URL?, line: Int?, entity: String?, property: String?, problem: String, fix: String
    ) -> PersistenceError {
        PersistenceError(
            code: .invalidModel,
            message: "\(place(file: file, line: line, entity: entity, property: property)): \(problem). \(fix)",
            entityName: entity, key: property, fileURL: file, line: line)
    }

    /// A property of an Xcode model that ObjectGraph's model has no concept for (a fetched
    /// property, a derived or composite attribute), refused so that it is not lost unnoticed.
    static func unsupportedModelProperty(
        file: URL?, line: Int, entity: String, property: String, kind: String, fix: String
    ) -> PersistenceError {
        PersistenceError(
            code: .unsupportedFormat,
            message: "\(place(file: file, line: line, entity: entity, property: property)): the \(kind) cannot be "
                + "imported: the model has no \(kind)s. \(fix), then remove it from the model, or import with "
                + "XcodeModel.Options(skipsUnsupportedProperties: true) to leave it out (it is listed in the "
                + "import's notes).",
            entityName: entity, key: property, fileURL: file, line: line)
    }

    private static func place(file: URL?, line: Int?, entity: String?, property: String?) -> String {
        var text = "In the Xcode model"
        if let file { text += " \(file.path)" }
        if let line { text += ", line \(line)" }
        if let entity { text += ", " + (property.map { "property '\(entity).\($0)'" } ?? "entity '\(entity)'") }
        return text
    }
}
