import Foundation

/// An order for fetched objects: a key path and a direction.
///
/// Keys may follow to-one relationships (`basket.label`). The key `objectID` sorts by the
/// object's ID (the order objects were inserted in), also through to-one relationships
/// (`basket.objectID`: by entity name, then key). `nil` values sort first in ascending
/// order and last in descending order. Sorting is stable: objects whose keys tie keep their key
/// (insertion) order.
///
/// Foundation has a generic `SortDescriptor<Compared>` too. In a file that imports both modules,
/// calls such as `SortDescriptor(key: "price")` resolve to this type, but as a type name
/// `SortDescriptor` is ambiguous: write `ObjectGraph.SortDescriptor` in type annotations.
///
/// For example:
/// ```swift
/// var request = Fruit.fetchRequest()
/// request.sortDescriptors = [
///     SortDescriptor(key: "price", ascending: false),
///     SortDescriptor(key: "name", comparison: .caseInsensitive),
/// ]
/// ```
///
/// Core Data: `NSSortDescriptor`.
public struct SortDescriptor: Sendable, Hashable, Codable, CustomStringConvertible {
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
    public var key: String
    /// Whether smaller values come first.
    public var ascending: Bool
    /// How strings are compared; other values ignore it.
    public var comparison: Comparison

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
    public var reversed: SortDescriptor {
        SortDescriptor(key: key, ascending: !ascending, comparison: comparison)
    }

    /// The direction as a Foundation `SortOrder`.
    public var order: SortOrder {
        get { ascending ? .forward : .reverse }
        set { ascending = newValue == .forward }
    }

    public var description: String {
        let comparison = self.comparison == .caseSensitive ? "" : ", \(self.comparison)"
        return "\(key) \(ascending ? "ascending" : "descending")\(comparison)"
    }
}
