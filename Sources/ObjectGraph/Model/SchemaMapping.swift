/// How the records of a store written with one schema become records of a model: for each
/// entity of the model, which stored entity its objects come from and how each property's value
/// is made. The plan of a lightweight (inferred) migration, made from schemas alone by
/// ``infer(from:to:)``; `StoreSnapshot.migrated(with:)` applies it to data.
struct SchemaMapping: Sendable {
    /// How one value of a stored property becomes a value of the model's property.
    enum Conversion: Sendable, Equatable {
        case none
        case integerToDouble
        case integerToDecimal
        case floatToDouble
        case toOneToToMany
        case toManyToToOne
    }

    /// How one property (one slot) of the model's entity gets its value.
    struct Step: Sendable {
        /// The property's name in the model.
        var name: String
        /// The stored property's slot, or `nil` for a new property.
        var source: Int?
        var conversion: Conversion
        /// The value of a new property, and of a required attribute whose stored value is nil.
        var fill: StoreValue
        /// Whether a nil after conversion is an error (unless `fill` replaces it).
        var isRequired: Bool
        /// The names that referenced objects' entities take (stored name to model name), when
        /// some entity was renamed; `nil` when none was.
        var referenceRenames: [String: String]?
        /// A relationship rebuilt from its inverse after every entity is mapped (it is new, or
        /// its inverse changed).
        var isDerivedFromInverse = false
    }

    /// Where one entity of the model gets its objects.
    struct EntityMapping: Sendable {
        /// The entity's name in the model.
        var name: String
        /// The stored entity its objects come from, or `nil` for a new (empty) entity.
        var source: String?
        /// One step per slot of the model's entity.
        var steps: [Step]
        /// Whether every record is kept as it is (same slots, values and destinations).
        var isIdentity: Bool
        /// Uniqueness constraints that the stored data was not held to, as model attribute names.
        var newUniquenessConstraints: [[String]]
        /// Whether the entity is abstract in the model but was not in the store: migrating
        /// needs the stored entity to have no objects.
        var becomesAbstract = false
    }

    /// The stored schema, as a model.
    var source: ManagedObjectModel
    /// The model the data is migrated to.
    var target: ManagedObjectModel
    /// One mapping per entity of `target`, in its order.
    var entities: [EntityMapping]
    /// What the migration changes, one entry per change, for reports and dry runs.
    var changes: [SchemaChange]

    /// Whether applying the mapping leaves every record as it is.
    var isIdentity: Bool {
        entities.allSatisfy(\.isIdentity) && source.infos.count == target.infos.count
    }
}
