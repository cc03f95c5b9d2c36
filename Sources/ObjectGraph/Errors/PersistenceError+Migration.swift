import Foundation

extension PersistenceError {
    /// One reason a store cannot be migrated to a model: what happens to which property, and why.
    static func migrationProblem(entity: String, key: String?, _ reason: String) -> PersistenceError {
        let subject = key.map { "'\(entity).\($0)'" } ?? "entity '\(entity)'"
        return PersistenceError(
            code: .modelMismatch, message: "\(subject) \(reason)", entityName: entity, key: key)
    }

    /// A migration that cannot be done: the store is left as it was.
    ///
    /// Carries the code of a model mismatch (the store still holds data of another model), the
    /// entity and property of the first problem, and every problem in `detailedErrors`, followed
    /// by the schema differences.
    static func migrationImpossible(_ problems: [PersistenceError], differences: [String] = [])
        -> PersistenceError
    {
        let first = problems.first
        let listed = problems.prefix(10).map { excerpt($0.message, limit: 1_000) }.joined(separator: "; ")
        let more = problems.count > 10 ? "; and \(problems.count - 10) more (see detailedErrors)" : ""
        return PersistenceError(
            code: .modelMismatch,
            message: "The store cannot be migrated to the model, and was left as it was: \(listed)\(more). "
                + "Change the model so that the change can be inferred, or migrate with a custom stage "
                + "(SchemaMigrationPlan) that transforms the values.",
            entityName: first?.entityName, key: first?.key,
            detailedErrors: problems + differences.map { PersistenceError(code: .modelMismatch, message: $0) })
    }

    /// A staged migration whose versions do not include the store's schema.
    static func unknownSourceVersion(versions: Int) -> PersistenceError {
        PersistenceError(
            code: .modelMismatch,
            message: "The store's schema matches none of the \(versions) model versions of the migration plan, so "
                + "it is not known which stages to run. Add the model the store was written with to the plan's "
                + "versions.")
    }

    /// A custom migration stage's closure failed.
    static func migrationStageFailed(_ stage: Int, underlying: any Error) -> PersistenceError {
        PersistenceError(
            code: .modelMismatch,
            message: "Migration stage \(stage + 1) failed, and the store was left as it was: \(underlying). "
                + "Fix the stage and open the store again.",
            underlying: underlying)
    }
}
