import Foundation

@testable import ObjectGraph

/// Random predicates over ``SQLTranslationCatalog``'s items: comparisons of every attribute type
/// with constants of their own and of other kinds, every operator and string option, key paths
/// through to-one and to-many relationships, `@count`, `SUBQUERY`, `SELF`, comparisons of two
/// key paths and functions (which do not translate), combined with AND, OR and NOT.
struct SQLTranslationPredicateGenerator {
    var random: SeededGenerator
    let groups: [ObjectID]
    let items: [ObjectID]

    typealias Expression = ObjectGraph.PredicateExpression
    typealias Operand = ObjectGraph.PredicateExpression.Operand

    mutating func pick<T>(_ values: [T]) -> T { values.randomElement(using: &random)! }
    mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &random) < percent }

    mutating func predicate(depth: Int = 0) -> Expression {
        guard depth < 3, chance(45) else { return atom() }
        switch Int.random(in: 0..<5, using: &random) {
        case 0: return .not(predicate(depth: depth + 1))
        case 1, 2: return .and((0..<Int.random(in: 2...3, using: &random)).map { _ in predicate(depth: depth + 1) })
        default: return .or((0..<Int.random(in: 2...3, using: &random)).map { _ in predicate(depth: depth + 1) })
        }
    }

    /// A value of a random kind, mostly of `kind`.
    mutating func constant(_ kind: String) -> PredicateValue {
        if chance(8) { return .null }
        if chance(6) { return pick([.int(1), .double(.nan), .string("a"), .bool(true), .decimal(1)]) }
        let catalog = SQLTranslationCatalog.self
        switch kind {
        case "string": return .string(pick(catalog.strings.compactMap { $0 }))
        case "int":
            return chance(70)
                ? .int(pick(catalog.integers.compactMap { $0 } + catalog.smalls.compactMap { $0 }))
                : .double(pick(catalog.doubles.compactMap { $0 } + [2.5, -0.5]))
        case "double":
            return chance(60)
                ? .double(pick(catalog.doubles.compactMap { $0 } + [1.5000001, 0.25])) : .int(pick([0, 1, 42, -1]))
        case "float": return .double(Double(pick(catalog.floats.compactMap { $0 })))
        case "bool": return pick([.bool(true), .bool(false), .int(0), .int(1), .int(2)])
        case "decimal": return chance(70) ? .decimal(pick(catalog.decimals.compactMap { $0 })) : .int(pick([0, 1, 42]))
        case "date": return .date(pick(catalog.dates.compactMap { $0 }))
        case "uuid": return .uuid(pick(catalog.uuids.compactMap { $0 }))
        case "data": return .data(pick(catalog.blobs.compactMap { $0 }))
        default: return .url(pick(catalog.links.compactMap { $0 }))
        }
    }

    static let attributes: [(String, String)] = [
        ("name", "string"), ("flag", "bool"), ("small", "int"), ("count", "int"), ("single", "float"),
        ("real", "double"), ("amount", "decimal"), ("when", "date"), ("code", "uuid"), ("bytes", "data"),
        ("link", "url"),
    ]

    mutating func options() -> Expression.Options {
        pick([[], [], [.caseInsensitive], [.diacriticInsensitive], [.caseInsensitive, .diacriticInsensitive]])
    }

    mutating func comparison(_ lhs: Operand, kind: String, modifier: Expression.Modifier = .direct) -> Expression {
        let op: Expression.Operator
        if kind == "string" && chance(55) {
            op = pick([.beginsWith, .endsWith, .contains, .like, .matches, .equalTo, .notEqualTo])
        } else {
            op = pick([
                .equalTo, .notEqualTo, .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo,
                .between, .in,
            ])
        }
        var rhs: PredicateValue
        switch op {
        case .between: rhs = .array([constant(kind), constant(kind)])
        case .in: rhs = .array((0..<Int.random(in: 0...3, using: &random)).map { _ in constant(kind) })
        case .like: rhs = .string(pick(["a*", "*b", "?b*", "x\\*y", "*é*", "ab?", "*", "?", "K*", "*🍎*"]))
        case .matches: rhs = .string(pick(["a.*", ".*[eé].*", "[A-Z]+", "x\\*y", ".", "(ab|cd)c?"]))
        default: rhs = constant(kind)
        }
        return .comparison(
            .init(lhs, op, .constant(rhs), modifier: modifier, options: kind == "string" ? options() : []))
    }

    mutating func atom() -> Expression {
        switch Int.random(in: 0..<100, using: &random) {
        case 0..<45:
            let (name, kind) = pick(Self.attributes)
            return comparison(.key(name), kind: kind)
        case 45..<52:
            return comparison(.key(pick(["group.title", "group.parent.title"])), kind: "string")
        case 52..<56:
            return comparison(.key(pick(["group.rank", "group.parent.rank"])), kind: "int")
        case 56..<60:
            let value: PredicateValue = chance(20) ? .null : .object(pick(groups))
            return .comparison(
                ObjectGraph.PredicateExpression.Comparison(
                    .key("group"), pick([ObjectGraph.PredicateExpression.Operator.equalTo, .notEqualTo]),
                    .constant(value)))
        case 60..<70:
            let (path, kind) = pick([
                ("tags.label", "string"), ("tags.weight", "double"), ("parts.serial", "string"),
                ("parts.quantity", "int"),
            ])
            return comparison(.key(path), kind: kind, modifier: pick([Expression.Modifier.any, .all, .direct]))
        case 70..<75:
            let value = PredicateValue.string(pick(SQLTranslationCatalog.strings.compactMap { $0 }))
            let path = pick(["tags.label", "parts.serial", "favorites.serial"])
            return .comparison(
                ObjectGraph.PredicateExpression.Comparison(.key(path), .contains, .constant(value), options: options()))
        case 75..<82:
            let count = Operand.collection(.key(pick(["tags", "parts", "favorites"])), .count, [])
            let op = pick([
                ObjectGraph.PredicateExpression.Operator.equalTo, .notEqualTo, .greaterThan, .lessThanOrEqualTo,
            ])
            return .comparison(
                ObjectGraph.PredicateExpression.Comparison(
                    count, op, .constant(.int(Int64.random(in: 0...3, using: &random)))))
        case 82..<87:
            let inner = Expression.and([
                comparison(Operand.keyPath(.variable("t"), ["label"]), kind: "string"),
                comparison(Operand.keyPath(.variable("t"), ["weight"]), kind: "double"),
            ])
            let body = chance(50) ? inner : Expression.or([inner, .constant(false)])
            let subquery = Operand.subquery(.key("tags"), variable: "t", body)
            let op = pick([ObjectGraph.PredicateExpression.Operator.greaterThan, .equalTo])
            return .comparison(
                ObjectGraph.PredicateExpression.Comparison(
                    .collection(subquery, .count, []), op, .constant(.int(pick([0, 1])))))
        case 87..<89:
            let members = (0..<Int.random(in: 0...3, using: &random)).map { _ in
                chance(15) ? PredicateValue.null : .object(pick(chance(80) ? items : groups))
            }
            let lhs: Operand = chance(50) ? .evaluatedObject : .key("group")
            let objects =
                lhs == .evaluatedObject
                ? members
                : members.map { value -> PredicateValue in
                    guard case .object(let id) = value, id.entityName == "Item" else { return value }
                    return .object(pick(groups))
                }
            return .comparison(ObjectGraph.PredicateExpression.Comparison(lhs, .in, .constant(.array(objects))))
        case 89..<91:
            let op = pick([ObjectGraph.PredicateExpression.Operator.equalTo, .notEqualTo])
            return .comparison(
                ObjectGraph.PredicateExpression.Comparison(.evaluatedObject, op, .constant(.object(pick(items)))))
        case 91..<95:
            // Two key paths: translated by nothing.
            let op = pick([ObjectGraph.PredicateExpression.Operator.lessThan, .equalTo])
            return .comparison(
                ObjectGraph.PredicateExpression.Comparison(.key("count"), op, .key(pick(["small", "real"]))))
        case 95..<98:
            let op = pick([ObjectGraph.PredicateExpression.Operator.lessThan, .greaterThanOrEqualTo])
            return .comparison(
                ObjectGraph.PredicateExpression.Comparison(.constant(constant("int")), op, .key("count")))
        default:
            return .comparison(
                ObjectGraph.PredicateExpression.Comparison(
                    .function("length:", [.key("name")]), .greaterThan, .constant(.int(2))))
        }
    }
}
