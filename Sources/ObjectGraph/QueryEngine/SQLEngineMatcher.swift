import Foundation

/// The query engine's own test of one value, callable from SQL as
/// `og_test(spec, value)`: 1 when the value (a column as ``SQLColumnCoding`` stores it) matches,
/// else 0, never `NULL`.
///
/// `spec` is the comparison with its entity as JSON text (bound as a parameter); the function
/// compiles it with ``CompiledPredicate`` once per connection and evaluates it on the decoded
/// value, so SQL that calls it selects exactly what the engine matches, string options
/// (`[c]`, `[d]`, Unicode folding), `LIKE`, `MATCHES` and decimals included.
enum SQLEngineMatcher {
    static let functionName = "og_test"

    /// What `og_test` evaluates: `attribute op constant` on `entity`.
    private struct Spec: Codable {
        var entity: String
        var comparison: PredicateExpression.Comparison
    }

    /// The JSON text of the test `attribute op constant` on `entity`; `nil` if it cannot be
    /// written.
    static func spec(
        _ entity: EntityInfo, _ attribute: String, _ op: PredicateExpression.Operator, _ constant: PredicateValue,
        _ options: PredicateExpression.Options
    ) -> String? {
        let comparison = PredicateExpression.Comparison(.key(attribute), op, .constant(constant), options: options)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        guard let data = try? encoder.encode(Spec(entity: entity.name, comparison: comparison)) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    /// Installs `og_test` for `model` on `database`.
    static func install(on database: any SQLFunctionRegistering, model: ManagedObjectModel) throws {
        let cache = Cache(model: model)
        try database.createFunction(name: functionName, argumentCount: 2, deterministic: true) { arguments in
            guard case .text(let spec) = arguments[0], let test = cache.test(spec) else { return .integer(0) }
            return .integer(test.matches(arguments[1]) ? 1 : 0)
        }
    }

    /// One compiled spec: the predicate and where the value goes.
    private struct CompiledTest {
        let predicate: CompiledPredicate
        let slot: Int
        let type: AttributeType
        let blank: [StoreValue]

        func matches(_ column: SQLValue) -> Bool {
            guard let value = SQLColumnCoding.decode(column, as: type) else { return false }
            var values = blank
            values[slot] = value
            return predicate.matches(values, objectID: nil) { _ in nil }
        }
    }

    /// Compiled specs by their text. Used on its connection's thread only, as the function is.
    private final class Cache {
        let model: ManagedObjectModel
        var tests: [String: CompiledTest?] = [:]

        init(model: ManagedObjectModel) { self.model = model }

        /// How many compiled specs a connection keeps; past it the cache starts again, so that a
        /// long-lived connection serving ever new constants stays bounded.
        static let limit = 512

        func test(_ text: String) -> CompiledTest? {
            if let known = tests[text] { return known }
            if tests.count >= Self.limit { tests.removeAll(keepingCapacity: true) }
            let compiled = compile(text)
            tests[text] = compiled
            return compiled
        }

        private func compile(_ text: String) -> CompiledTest? {
            guard let spec = try? JSONDecoder().decode(Spec.self, from: Data(text.utf8)),
                let entity = model.info(named: spec.entity),
                case .keyPath(.evaluatedObject, let path) = spec.comparison.lhs, path.count == 1,
                let slot = entity.slotByName[path[0]], entity.isAttribute(slot),
                let predicate = try? CompiledPredicate(.comparison(spec.comparison), entity: entity, model: model)
            else { return nil }
            return CompiledTest(
                predicate: predicate, slot: slot, type: entity.attribute(at: slot).type,
                blank: Array(repeating: .null, count: entity.propertyCount))
        }
    }
}
