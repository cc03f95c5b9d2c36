import Foundation

/// An order for fetched objects: a key path and a direction.
///
/// Keys may follow to-one relationships (`basket.label`). The key `objectID` sorts by the
/// object's ID (the order objects were inserted in), also through to-one relationships
/// (`basket.objectID`: by entity name, then key). `nil` values sort first in ascending
/// order and last in descending order. Sorting is stable: objects whose keys tie keep their key
/// (insertion) order.
///
/// The name keeps clear of Foundation's generic `SortDescriptor<Compared>`, as ``FetchPredicate``
/// keeps clear of Foundation's `Predicate`. ``SortDescriptor`` remains as another name for it, so
/// ported calls such as `SortDescriptor(key: "price")` and
/// `request.sortDescriptors = [SortDescriptor(\Fruit.price, order: .reverse)]` compile unchanged,
/// also in files that import Foundation; write `FetchSortDescriptor` where a type name is needed
/// (`[FetchSortDescriptor]`). A Foundation `SortDescriptor<Fruit>` converts with
/// `FetchSortDescriptor(_:)` or goes to ``FetchRequest/sortBy``.
///
/// For example:
/// ```swift
/// var request = Fruit.fetchRequest()
/// request.sortDescriptors = [
///     FetchSortDescriptor(key: "price", ascending: false),
///     FetchSortDescriptor(key: "name", comparison: .caseInsensitive),
/// ]
/// ```
///
/// Core Data: `NSSortDescriptor`.
public struct FetchSortDescriptor: Sendable, Hashable, Codable, CustomStringConvertible {
    /// How strings are compared.
    ///
    /// Core Data: the comparison selectors of `NSSortDescriptor` (`compare:`,
    /// `caseInsensitiveCompare:`, `localizedCompare:`, …).
    public enum Comparison: String, Sendable, Hashable, Codable, CaseIterable {
        /// By Unicode scalar values (`compare:`); fastest.
        case caseSensitive
        /// By Unicode case-folded strings (`caseInsensitiveCompare:`).
        case caseInsensitive
        /// As the current locale orders strings (`localizedCompare:`).
        case localized
        /// As the current locale orders strings, ignoring case (`localizedCaseInsensitiveCompare:`).
        case localizedCaseInsensitive
        /// As Finder orders file names: locale-aware, case-insensitive, numbers by value
        /// (`localizedStandardCompare:`).
        case localizedStandard
    }

    /// The key path to sort by, such as `price` or `basket.label`.
    public var key: String {
        didSet { foundationDescriptor = nil }
    }
    /// Whether smaller values come first.
    public var ascending: Bool {
        didSet { foundationDescriptor = nil }
    }
    /// How strings are compared; other values ignore it.
    public var comparison: Comparison {
        didSet { foundationDescriptor = nil }
    }
    /// Why the key path given to a key-path initializer names no stored property; a fetch with
    /// the descriptor throws it. `nil` for a descriptor that names its key.
    var keyPathProblem: String?
    /// The Foundation `SortDescriptor` this descriptor was made from, for
    /// ``FetchRequest/sortBy``; not part of equality or the encoded form, and dropped when the
    /// key, direction or comparison changes.
    var foundationDescriptor: (any Sendable)?

    private enum CodingKeys: String, CodingKey {
        case key, ascending, comparison, keyPathProblem
    }

    /// Creates a sort descriptor for a key path.
    ///
    /// Core Data: `NSSortDescriptor(key:ascending:)` and `NSSortDescriptor(key:ascending:selector:)`.
    public init(key: String, ascending: Bool = true, comparison: Comparison = .caseSensitive) {
        self.key = key
        self.ascending = ascending
        self.comparison = comparison
    }

    /// The same key and comparison in the opposite direction.
    ///
    /// Core Data: `NSSortDescriptor.reversedSortDescriptor`.
    public var reversed: FetchSortDescriptor {
        var reversed = self
        reversed.ascending.toggle()
        return reversed
    }

    /// The direction as a Foundation `SortOrder`.
    public var order: SortOrder {
        get { ascending ? .forward : .reverse }
        set { ascending = newValue == .forward }
    }

    /// Whether the two are equal.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.key == rhs.key && lhs.ascending == rhs.ascending && lhs.comparison == rhs.comparison
            && lhs.keyPathProblem == rhs.keyPathProblem
    }

    /// Hashes the components that `==` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(key)
        hasher.combine(ascending)
        hasher.combine(comparison)
        hasher.combine(keyPathProblem)
    }

    /// A readable description, for logs and debugging.
    public var description: String {
        let comparison = self.comparison == .caseSensitive ? "" : ", \(self.comparison)"
        return "\(key) \(ascending ? "ascending" : "descending")\(comparison)"
    }
}

/// Another name for ``FetchSortDescriptor``, kept so that code written before the rename and code
/// ported from Core Data (`NSSortDescriptor` without its prefix) compiles unchanged.
///
/// Calls such as `SortDescriptor(key: "price")` resolve to it also in files that import
/// Foundation, but there the bare type name is ambiguous with Foundation's
/// `SortDescriptor<Compared>`: write ``FetchSortDescriptor`` in type annotations.
public typealias SortDescriptor = FetchSortDescriptor
