/// A piece of SQL with the values of its parameters, kept apart until the statement is complete,
/// so that pieces can be combined (or dropped) and numbered in the order they end up in.
struct SQLFragment {
    /// The text around the parameters: one more piece than there are values.
    private(set) var pieces: [String]
    /// The parameters' values, in order.
    private(set) var values: [SQLValue]

    /// SQL text without parameters.
    init(_ sql: String) {
        pieces = [sql]
        values = []
    }

    /// One parameter bound to `value`.
    static func value(_ value: SQLValue) -> SQLFragment {
        var fragment = SQLFragment("")
        fragment.pieces.append("")
        fragment.values.append(value)
        return fragment
    }

    /// `lhs` followed by `rhs`.
    static func + (lhs: SQLFragment, rhs: SQLFragment) -> SQLFragment {
        var result = lhs
        result.pieces[result.pieces.count - 1] += rhs.pieces[0]
        result.pieces.append(contentsOf: rhs.pieces.dropFirst())
        result.values.append(contentsOf: rhs.values)
        return result
    }

    static func + (lhs: SQLFragment, rhs: String) -> SQLFragment { lhs + SQLFragment(rhs) }
    static func + (lhs: String, rhs: SQLFragment) -> SQLFragment { SQLFragment(lhs) + rhs }

    /// The fragments with `separator` between them.
    static func joined(_ fragments: [SQLFragment], separator: String) -> SQLFragment {
        guard var result = fragments.first else { return SQLFragment("") }
        for fragment in fragments.dropFirst() { result = result + separator + fragment }
        return result
    }

    /// The text with each parameter spelled as `dialect` numbers them, from `start`.
    func text(_ dialect: SQLDialect, from start: Int = 1) -> String {
        var text = pieces[0]
        for index in values.indices { text += dialect.placeholder(start + index) + pieces[index + 1] }
        return text
    }
}
