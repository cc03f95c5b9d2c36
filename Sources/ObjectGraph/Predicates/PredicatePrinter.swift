import Foundation

/// Prints expression trees in format syntax, such that parsing the text gives the tree back.
///
/// Constants that have no literal syntax print as casts of literals, as `NSPredicate` prints
/// dates: `CAST(740000000.0, "NSDate")`, `CAST("…", "NSUUID")`, `CAST("…", "NSData")` (base64),
/// `CAST("…", "NSURL")`, `CAST("1.5", "NSDecimalNumber")`, `CAST("x-objectgraph:///Fruit/p1",
/// "ObjectID")`, and non-finite numbers as `CAST("nan", "NSNumber")`.
enum PredicatePrinter {
    static func predicate(_ expression: PredicateExpression) -> String {
        switch expression {
        case .constant(let value): return value ? "TRUEPREDICATE" : "FALSEPREDICATE"
        case .not(let inner):
            switch inner {
            case .and, .or: return "NOT (\(predicate(inner)))"
            default: return "NOT \(predicate(inner))"
            }
        case .and(let operands):
            guard !operands.isEmpty else { return "TRUEPREDICATE" }
            return operands.map { grouped($0, if: { isOr($0) || isAnd($0) }) }.joined(separator: " AND ")
        case .or(let operands):
            guard !operands.isEmpty else { return "FALSEPREDICATE" }
            return operands.map { grouped($0, if: isOr) }.joined(separator: " OR ")
        case .comparison(let comparison):
            return self.comparison(comparison)
        }
    }

    private static func isOr(_ expression: PredicateExpression) -> Bool {
        if case .or = expression { return true }
        return false
    }

    private static func isAnd(_ expression: PredicateExpression) -> Bool {
        if case .and = expression { return true }
        return false
    }

    private static func grouped(_ expression: PredicateExpression, if condition: (PredicateExpression) -> Bool)
        -> String
    {
        condition(expression) ? "(\(predicate(expression)))" : predicate(expression)
    }

    static func comparison(_ comparison: PredicateExpression.Comparison) -> String {
        let modifier =
            switch comparison.modifier {
            case .direct: ""
            case .any: "ANY "
            case .all: "ALL "
            }
        return "\(modifier)\(operand(comparison.lhs)) \(spelling(of: comparison.operator))"
            + "\(options(comparison.options)) \(operand(comparison.rhs))"
    }

    static func spelling(of op: PredicateExpression.Operator) -> String {
        switch op {
        case .equalTo: "=="
        case .notEqualTo: "!="
        case .lessThan: "<"
        case .lessThanOrEqualTo: "<="
        case .greaterThan: ">"
        case .greaterThanOrEqualTo: ">="
        case .between: "BETWEEN"
        case .in: "IN"
        case .contains: "CONTAINS"
        case .beginsWith: "BEGINSWITH"
        case .endsWith: "ENDSWITH"
        case .like: "LIKE"
        case .matches: "MATCHES"
        }
    }

    static func options(_ options: PredicateExpression.Options) -> String {
        var letters = ""
        if options.contains(.caseInsensitive) { letters += "c" }
        if options.contains(.diacriticInsensitive) { letters += "d" }
        if options.contains(.normalized) { letters += "n" }
        if options.contains(.localeSensitive) { letters += "l" }
        return letters.isEmpty ? "" : "[\(letters)]"
    }

    static func operand(_ operand: PredicateExpression.Operand) -> String {
        switch operand {
        case .constant(let value): return literal(value)
        case .evaluatedObject: return "SELF"
        case .variable(let name): return "$\(name)"
        case .keyPath(let base, let keys):
            let path = keys.map(key).joined(separator: ".")
            if case .evaluatedObject = base { return keys.isEmpty ? "SELF" : path }
            return keys.isEmpty ? self.operand(base) : "\(self.operand(base)).\(path)"
        case .aggregate(let elements):
            return "{\(elements.map(self.operand).joined(separator: ", "))}"
        case .collection(let base, let function, let keys):
            let prefix: String
            if case .keyPath(.evaluatedObject, let baseKeys) = base, baseKeys.isEmpty {
                prefix = "SELF"
            } else {
                prefix = self.operand(base)
            }
            return "\(prefix).@\(function.rawValue)" + keys.map { ".\(key($0))" }.joined()
        case .subquery(let collection, let variable, let predicate):
            return "SUBQUERY(\(self.operand(collection)), $\(variable), \(self.predicate(predicate)))"
        case .function(let name, let arguments):
            return function(name, arguments)
        case .ternary(let condition, let whenTrue, let whenFalse):
            return "TERNARY(\(predicate(condition)), \(self.operand(whenTrue)), \(self.operand(whenFalse)))"
        case .index(let collection, let index):
            let inner =
                switch index {
                case .first: "FIRST"
                case .last: "LAST"
                case .size: "SIZE"
                case .at(let position): self.operand(position)
                }
            return "\(postfixBase(collection))[\(inner)]"
        }
    }

    /// A key, escaped with `#` when it is a reserved word.
    static func key(_ key: String) -> String {
        PredicateLexer.reservedWords.contains(key.uppercased()) ? "#\(key)" : key
    }

    static func literal(_ value: PredicateValue) -> String {
        switch value {
        case .null: return "nil"
        case .bool(let value): return value ? "YES" : "NO"
        case .int(let value): return "\(value)"
        case .double(let value):
            guard value.isFinite else { return cast(quoted(nonFinite(value)), "NSNumber") }
            return "\(value)"
        case .decimal(let value): return cast(quoted(value.isNaN ? "nan" : "\(value)"), "NSDecimalNumber")
        case .string(let value): return quoted(value)
        case .date(let value):
            let interval = value.timeIntervalSinceReferenceDate
            return cast(interval.isFinite ? "\(interval)" : quoted(nonFinite(interval)), "NSDate")
        case .data(let value): return cast(quoted(value.base64EncodedString()), "NSData")
        case .uuid(let value): return cast(quoted(value.uuidString), "NSUUID")
        case .url(let value): return cast(quoted(value.absoluteString), "NSURL")
        case .object(let value): return cast(quoted(value.uriRepresentation.absoluteString), "ObjectID")
        case .array(let elements): return "{\(elements.map(literal).joined(separator: ", "))}"
        }
    }

    private static func nonFinite(_ value: Double) -> String {
        value.isNaN ? "nan" : (value < 0 ? "-inf" : "inf")
    }

    private static func cast(_ argument: String, _ type: String) -> String {
        "CAST(\(argument), \"\(type)\")"
    }

    /// A double-quoted string literal with escapes for quotes, backslashes and control characters.
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20 || (0x7F..<0xA0).contains(scalar.value):
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
