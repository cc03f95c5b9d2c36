import Foundation

extension FetchSortDescriptor {
    /// Creates a descriptor from a Foundation `SortDescriptor` of a `ManagedObject` subclass.
    ///
    /// The descriptor's key path must read one stored `@Attribute` property of `Object` itself
    /// (or be `\.objectID`), found as ``init(_:order:comparison:)`` finds it; otherwise a fetch
    /// with the descriptor throws `PersistenceError.Code.invalidFetchRequest` naming the key path.
    /// Its order is kept. Its string comparator becomes a ``Comparison``:
    ///
    /// | Foundation comparator                          | Comparison                  |
    /// |------------------------------------------------|-----------------------------|
    /// | none (a `Comparable` key path), `.lexical`     | `.caseSensitive`            |
    /// | case-insensitive, not localized                | `.caseInsensitive`          |
    /// | `.localized`                                   | `.localized`                |
    /// | localized and case-insensitive                 | `.localizedCaseInsensitive` |
    /// | numeric (`.localizedStandard`)                 | `.localizedStandard`        |
    ///
    /// Other compare options (such as diacritic insensitivity) are ignored. On Linux,
    /// `SortDescriptor(\Fruit.name)` compares strings as `Comparable` (`.caseSensitive`); on Apple
    /// platforms the same call picks `.localizedStandard`.
    ///
    /// For example:
    /// ```swift
    /// let byName = SortDescriptor<Fruit>(\.name, order: .reverse)   // Foundation's
    /// request.sortDescriptors = [FetchSortDescriptor(byName)]
    /// ```
    ///
    /// SwiftData: the `SortDescriptor`s of `FetchDescriptor.sortBy`.
    public init<Object: ManagedObject>(_ descriptor: Foundation.SortDescriptor<Object>) {
        guard let keyPath = descriptor.keyPath else {
            self.init(key: "\(descriptor)", ascending: descriptor.order == .forward)
            keyPathProblem = "the Foundation sort descriptor compares with a comparator, not a key path"
            foundationDescriptor = descriptor
            return
        }
        let comparison = descriptor.stringComparator.map(Comparison.init(_:)) ?? .caseSensitive
        self.init(keyPath, order: descriptor.order, comparison: comparison)
        foundationDescriptor = descriptor
    }

    /// Creates a descriptor for a typed string property with a Foundation string comparator,
    /// mapped to a ``Comparison`` as ``init(_:)`` maps it.
    ///
    /// Foundation: `SortDescriptor(_:comparator:order:)`.
    public init<Object: ManagedObject>(
        _ keyPath: KeyPath<Object, String>, comparator: String.StandardComparator, order: SortOrder = .forward
    ) {
        self.init(keyPath as PartialKeyPath<Object>, order: order, comparison: Comparison(comparator))
    }

    /// Creates a descriptor for a typed optional string property with a Foundation string
    /// comparator, mapped to a ``Comparison`` as ``init(_:)`` maps it.
    ///
    /// Foundation: `SortDescriptor(_:comparator:order:)`.
    public init<Object: ManagedObject>(
        _ keyPath: KeyPath<Object, String?>, comparator: String.StandardComparator, order: SortOrder = .forward
    ) {
        self.init(keyPath as PartialKeyPath<Object>, order: order, comparison: Comparison(comparator))
    }
}

#if !canImport(Darwin)
    extension FetchSortDescriptor {
        /// Creates a descriptor for a typed string property with a comparison spelled as Apple's
        /// Foundation spells its string comparators (`comparator: .localizedStandard`), which
        /// Foundation on Linux does not have, so that code written for Apple platforms compiles.
        ///
        /// Foundation (Apple platforms): `SortDescriptor(_:comparator:order:)`.
        public init<Object: ManagedObject>(
            _ keyPath: KeyPath<Object, String>, comparator: Comparison, order: SortOrder = .forward
        ) {
            self.init(keyPath as PartialKeyPath<Object>, order: order, comparison: comparator)
        }

        /// Creates a descriptor for a typed optional string property with a comparison spelled as
        /// Apple's Foundation spells its string comparators (`comparator: .localized`).
        ///
        /// Foundation (Apple platforms): `SortDescriptor(_:comparator:order:)`.
        public init<Object: ManagedObject>(
            _ keyPath: KeyPath<Object, String?>, comparator: Comparison, order: SortOrder = .forward
        ) {
            self.init(keyPath as PartialKeyPath<Object>, order: order, comparison: comparator)
        }
    }
#endif

extension FetchSortDescriptor.Comparison {
    /// The comparison that means what a Foundation string comparator means (see
    /// ``FetchSortDescriptor/init(_:)``).
    ///
    /// A comparator's options are not public API, but its `Codable` form is (`options`, the raw
    /// value of its `String.CompareOptions`, and `isLocalized`): it is read from there, so that
    /// every comparator maps, including ones decoded from elsewhere. (On Linux, Foundation has
    /// only `.lexical`; Apple platforms add `.localized` and `.localizedStandard`.)
    public init(_ comparator: String.StandardComparator) {
        struct Fields: Decodable {
            let options: UInt
            let isLocalized: Bool
        }
        guard let data = try? JSONEncoder().encode(comparator),
            let fields = try? JSONDecoder().decode(Fields.self, from: data)
        else {
            self = .caseSensitive
            return
        }
        self.init(options: String.CompareOptions(rawValue: fields.options), isLocalized: fields.isLocalized)
    }

    /// The comparison of a string comparator with these options: numeric ordering is
    /// `.localizedStandard`'s, otherwise case insensitivity and localization pick the case.
    init(options: String.CompareOptions, isLocalized: Bool) {
        switch (options.contains(.numeric), options.contains(.caseInsensitive), isLocalized) {
        case (true, _, _): self = .localizedStandard
        case (false, true, true): self = .localizedCaseInsensitive
        case (false, true, false): self = .caseInsensitive
        case (false, false, true): self = .localized
        case (false, false, false): self = .caseSensitive
        }
    }
}
