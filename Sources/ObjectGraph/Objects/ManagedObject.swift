import Foundation

/// One object of the graph: an instance of an entity, tracked by a ``ManagedContext``.
///
/// Subclass it and declare properties with `@Attribute` and `@Relationship` for typed access, or
/// use it directly with ``value(forKey:)`` and ``setValue(_:forKey:)``.
///
/// For example:
/// ```swift
/// final class Fruit: ManagedObject {
///     @Attribute var name = ""
///     @Attribute var price: Int64 = 0
/// }
/// let apple = Fruit(context: context)
/// apple.name = "Apple"
/// try context.save()
/// ```
///
/// `Identifiable` uses the object's identity (`ObjectIdentifier`), so subclasses are free to
/// declare an attribute named `id`, such as `@Attribute var id = UUID()`.
///
/// Objects are not `Sendable`: use one only in its context's isolation domain, and pass its
/// ``objectID`` to other domains.
///
/// Core Data: `NSManagedObject`.
open class ManagedObject: Identifiable, Hashable, CustomStringConvertible {
    /// The compiled entity; replaced when a detached object is inserted into a context.
    // Unchecked: read on every property access; objects stay in one domain, no access overlaps.
    @exclusivity(unchecked) var info: EntityInfo
    /// The object's key within its entity (0 until first inserted); with the entity's name it is
    /// the object's ``objectID`` (kept apart so that each object does not store the name).
    // Unchecked: read on every property access; objects stay in one domain, no access overlaps.
    @exclusivity(unchecked) var objectKey: Int64 = 0
    /// The owning context. Invariant: non-nil only while the context registers this object; the
    /// context clears it when it unregisters the object and in its `deinit`, so it never dangles.
    // Unchecked: read on every property access; objects stay in one domain, no access overlaps.
    @exclusivity(unchecked) unowned(unsafe) var context: ManagedContext?
    /// Current values by slot: attributes in model order, then relationships.
    // Unchecked: read on every property access; objects stay in one domain, no access overlaps.
    @exclusivity(unchecked) @usableFromInline var values: [StoreValue]
    /// ``committed`` and the observation registrar, in one field (see `Extra`):
    /// an object pays for a registrar only once it is observed.
    // Unchecked: read on every property access; objects stay in one domain, no access overlaps.
    @exclusivity(unchecked) var extra = Extra.none
    /// The stored record's version when it was read or saved, for conflict detection.
    // Unchecked: read on every property access; objects stay in one domain, no access overlaps.
    @exclusivity(unchecked) var version: Int64 = 0
    /// The last field, one byte: a subclass's property wrappers start right after it.
    // Unchecked: read on every property access; objects stay in one domain, no access overlaps.
    @exclusivity(unchecked) var flags = Flags()

    typealias Flags = ManagedObjectFlags

    deinit {
        // The context holds its objects weakly: one leaving memory leaves the context's registry.
        context?.registryStorage.forget(self)
    }

    /// Creates an object of `entity` and inserts it into `context`, or leaves it detached when
    /// `context` is `nil` (insert it later with ``ManagedContext/insert(_:)``).
    ///
    /// An entity that `context`'s model does not contain, or a class other than the one the
    /// model gives the entity, is a programmer error that stops the program (Core Data raises):
    /// an initializer cannot throw. See "Programmer errors" in Docs/Validation.md.
    ///
    /// Core Data: `NSManagedObject.init(entity:insertInto:)`.
    public required init(entity: EntityDescription, insertInto context: ManagedContext?) {
        if let bound = entity.boundInfo {
            info = bound
        } else if let context, let typed = context.model.info(forClass: Self.self), typed.name == entity.name {
            info = typed
        } else if let context {
            guard let found = context.model.info(named: entity.name) else {
                preconditionFailure(
                    "Entity '\(entity.name)' is not in the context's model. Add it to the model, "
                        + "or create objects of entities the model contains.")
            }
            info = found
        } else {
            info = EntityInfo(detached: entity)
        }
        values = info.defaultValues
        precondition(
            info.managedObjectClass == ManagedObject.self || Self.self == info.managedObjectClass,
            "Entity '\(info.name)' is represented by \(info.managedObjectClass); create its objects with "
                + "\(info.managedObjectClass)(context:) rather than \(Self.self).")
        if !entity.isMaterializing {
            for initial in info.description.initialValues { values[initial.slot] = initial.make() }
        }
        if let context { context.insert(self) }
    }

    /// Creates an object of this subclass's entity and inserts it into `context`.
    ///
    /// A class that is not in the context's model is a programmer error that stops the program
    /// (Core Data raises); build the model from the class.
    ///
    /// It is `required`, so that generic code can create objects of a type parameter:
    /// ```swift
    /// func make<T: ManagedObject>(_: T.Type, in context: ManagedContext) -> T { T(context: context) }
    /// ```
    /// Subclasses inherit it with ``init(entity:insertInto:)``; one that declares its own
    /// `init(context:)` marks it `required convenience`.
    ///
    /// Core Data: `NSManagedObject.init(context:)`.
    public required convenience init(context: ManagedContext) {
        guard let info = context.model.info(forClass: Self.self) else {
            preconditionFailure(
                "\(Self.self) is not in the context's model. Create the model with "
                    + "ManagedObjectModel(\(Self.self).self, …).")
        }
        self.init(entity: info.description, insertInto: context)
    }

    /// The entity name a typed subclass is stored under; the class name unless overridden.
    open class var entityName: String {
        String(describing: self)
    }

    /// The sets of attribute names whose combined values must be unique; override in a subclass.
    open class var uniquenessConstraints: [[String]] { [] }

    /// The entity's name in the previous model version, when it was renamed: migration maps the
    /// stored entity of that name to this class's entity. `nil` unless overridden.
    ///
    /// For example:
    /// ```swift
    /// final class Person: ManagedObject {
    ///     override class var renamingIdentifier: String? { "Customer" }
    /// }
    /// ```
    ///
    /// Core Data: `NSEntityDescription.renamingIdentifier`.
    open class var renamingIdentifier: String? { nil }

    /// Whether the class's entity is abstract: it only exists to be inherited from, and its
    /// objects cannot be saved. Class properties are inherited, so an abstract class whose
    /// subclasses are concrete answers for itself only.
    ///
    /// For example:
    /// ```swift
    /// class Animal: ManagedObject {
    ///     override class var isAbstractEntity: Bool { self == Animal.self }
    /// }
    /// ```
    ///
    /// Core Data: `NSEntityDescription.isAbstract` (the "Abstract Entity" box of Xcode's editor).
    open class var isAbstractEntity: Bool { false }

    /// The entity's fetch indexes; override in a subclass, for example
    /// `[FetchIndexDescription([\Fruit.category, \Fruit.price])]`.
    ///
    /// Core Data: `NSEntityDescription.indexes`; SwiftData: `#Index<Fruit>([\.category, \.price])`.
    open class var indexes: [FetchIndexDescription] { [] }

    /// Whether a `cascade` delete rule may delete saved objects of this class that the context
    /// does not hold without making instances of them: `false` (the default) except for
    /// `ManagedObject` itself. Return `true` from a class that overrides none of
    /// ``awakeFromFetch()``, ``prepareForDeletion()``, ``willSave()``, ``validateForDelete()``
    /// and ``didSave()`` (and whose subclasses override none) to make large cascades faster:
    /// such objects are then deleted as rows, and become instances only when the context is asked
    /// for objects (``ManagedContext/deletedObjects``, a fetch, a lookup by ID), so those hooks
    /// would not run for them. Everything else is the same: ``ManagedContext/hasChanges``,
    /// the save, its notifications and history, ``ManagedContext/rollback()``.
    ///
    /// For example:
    /// ```swift
    /// final class LineItem: ManagedObject {
    ///     override class var deletesWithoutInstances: Bool { true }
    ///     @Attribute var quantity: Int64 = 0
    /// }
    /// ```
    ///
    /// Core Data: none (Core Data makes every cascaded object a fault, and fires it).
    open class var deletesWithoutInstances: Bool { self == ManagedObject.self }

    /// The object's identity; its key is assigned when the object is first inserted.
    public internal(set) var objectID: ObjectID {
        get { ObjectID(entityName: info.name, key: objectKey) }
        set {
            assert(newValue.entityName == info.name, "An object's ID names its own entity.")
            objectKey = newValue.key
        }
    }

    /// The object's entity.
    public var entity: EntityDescription { info.description }

    /// The context that owns the object, or `nil` for a detached or deleted-and-saved object.
    public var managedObjectContext: ManagedContext? { context }

    /// Whether the object was inserted and not yet saved.
    public var isInserted: Bool { flags.isInserted }

    /// Whether the object is marked for deletion at the next save, or no longer exists.
    public var isDeleted: Bool { flags.isDeleted || flags.isMissing }

    /// Whether the object has saved values that differ from its current ones.
    public var isUpdated: Bool {
        guard context != nil, !flags.isInserted, !flags.isDeleted, !flags.isMissing, let committed else {
            return false
        }
        return committed != values
    }

    /// Whether the object has unsaved changes: inserted, updated or deleted.
    public var hasChanges: Bool { flags.isInserted || flags.isDeleted || isUpdated }

    // MARK: - Lifecycle hooks

    /// Called once, when the object is first inserted into a context. Set initial values here.
    open func awakeFromInsert() {}

    /// Called when the object is read from the store into a context.
    open func awakeFromFetch() {}

    /// Called on each inserted, updated or deleted object before its context saves.
    open func willSave() {}

    /// Called when the object is about to be deleted: by ``ManagedContext/delete(_:)``, also for
    /// an object deleted by another object's `cascade` delete rule, after ``isDeleted`` became
    /// true and before its own relationships' delete rules run, so its relationships still hold
    /// their destinations (except, for an object deleted by a cascade, its relationship back to
    /// the object whose deletion cascaded, which the cascade clears first). Override it to tidy
    /// up before the relationships are torn down; changes
    /// made here are tracked (and undone) like any other. Called once per delete: an undone
    /// delete that is deleted again calls it again.
    ///
    /// Not called for objects removed by a ``BatchDeleteRequest``, by the store path of
    /// ``ManagedContext/deleteAll(_:)``, or by merging another context's save that deleted them:
    /// those never pass through this context's `delete(_:)`, as in Core Data.
    ///
    /// Core Data: `NSManagedObject.prepareForDeletion()`.
    open func prepareForDeletion() {}

    /// Called on each saved object after its context saved.
    open func didSave() {}

    /// Checks the object's own rules before a save; throw a ``PersistenceError`` (for example from
    /// ``PersistenceError/validation(_:object:key:underlying:)``) or your own error to refuse the
    /// save. Called for inserted and updated objects by the default ``validateForInsert()`` and
    /// ``validateForUpdate()``, after the object's required values and attribute rules passed, so
    /// it may read every required attribute.
    ///
    /// Not part of Core Data, whose apps override `validateForInsert()` and `validateForUpdate()`.
    open func validateForSave() throws {}

    /// Checks an inserted object before its first save: its required values, relationship
    /// counts and attribute rules, then ``validateForSave()``.
    ///
    /// Override it to add rules, and call `super` first: the required values are then known to be
    /// set when your checks read them. During a save an object whose values fail these checks
    /// is reported without calling this method, as Core Data's `super.validateForInsert()` throws
    /// before an override's own checks run.
    ///
    /// For example:
    /// ```swift
    /// override func validateForInsert() throws {
    ///     try super.validateForInsert()
    ///     if createdAt > Date() { throw PersistenceError.validation("Not in the future.", object: self) }
    /// }
    /// ```
    ///
    /// - Throws: `PersistenceError.Code.validation`: the one failure, or one error whose
    ///   `detailedErrors` lists every failure; or whatever ``validateForSave()`` throws.
    ///
    /// Core Data: `NSManagedObject.validateForInsert()`.
    open func validateForInsert() throws {
        try validateProperties()
        try validateForSave()
    }

    /// Checks a changed object before a save: its required values, relationship counts and
    /// attribute rules, then ``validateForSave()``; override it as ``validateForInsert()``.
    ///
    /// - Throws: as ``validateForInsert()``.
    ///
    /// Core Data: `NSManagedObject.validateForUpdate()`.
    open func validateForUpdate() throws {
        try validateProperties()
        try validateForSave()
    }

    /// Checks an object marked for deletion before a save: refuses it while a relationship with
    /// the `deny` delete rule is not empty. Override it (calling `super` first) to add rules;
    /// throw to refuse the deletion.
    ///
    /// - Throws: `PersistenceError.Code.validation` for a non-empty `deny` relationship; or
    ///   whatever an override throws.
    ///
    /// Core Data: `NSManagedObject.validateForDelete()`.
    open func validateForDelete() throws {
        try validateDenyRules()
    }

    // MARK: - Identity

    /// Whether the two are equal.
    public static func == (lhs: ManagedObject, rhs: ManagedObject) -> Bool { lhs === rhs }

    /// Hashes the components that `==` compares.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

    /// A readable description, for logs and debugging.
    open var description: String {
        var state: [String] = []
        if flags.isInserted { state.append("inserted") }
        if isDeleted { state.append("deleted") }
        if isUpdated { state.append("updated") }
        let properties = (0..<values.count).map { "\(info.propertyName(at: $0)): \(values[$0])" }
        let suffix = state.isEmpty ? "" : " (\(state.joined(separator: ", ")))"
        return "<\(info.name) \(objectID)\(suffix)> { \(properties.joined(separator: "; ")) }"
    }
}

// Not Sendable, on purpose: the unavailable conformance makes the compiler refuse to pass objects
// across isolation domains (the `@unchecked` is never used, as the conformance cannot be).
@available(*, unavailable, message: "Managed objects belong to one isolation domain; pass their objectID instead.")
extension ManagedObject: @unchecked Sendable {}

extension ManagedObject {
    /// Whether the object's values differ from what lies beneath its context: inserted,
    /// touched, deleted or found missing.
    var hasUnsavedState: Bool {
        flags.isInserted || flags.isDeleted || flags.isMissing || flags.isTouched
    }
}

extension ManagedObject {
    /// What an object keeps beside its current values: the values it last read or saved and,
    /// once it is observed, its registrar, which then keeps those values too. One 8-byte field
    /// where there were two, so that objects nobody observes (nearly all) are 8 bytes smaller.
    enum Extra {
        /// Never saved, not observed.
        case none
        /// The values last read from or saved to the store.
        case committed([StoreValue])
        /// Observed: the registrar, and the committed values if any.
        case observed(ObservationBox)
    }

    /// The values last read from or saved to the store; `nil` if the object was never saved.
    var committed: [StoreValue]? {
        get {
            switch extra {
            case .none: nil
            case .committed(let values): values
            case .observed(let box): box.committed
            }
        }
        set {
            if case .observed(let box) = extra {
                box.committed = newValue
            } else if let newValue {
                extra = .committed(newValue)
            } else {
                extra = .none
            }
        }
    }

    /// Tracks `withObservationTracking` readers; made on the first read, so that objects never
    /// read cost nothing and changes to them notify nobody. See `ManagedObject+Observation.swift`.
    var observationRegistrar: ObservationBox? {
        if case .observed(let box) = extra { box } else { nil }
    }

    /// The object's registrar, made (and given the committed values) if it has none yet.
    final func makeObservationBox() -> ObservationBox {
        if let box = observationRegistrar { return box }
        let box = ObservationBox(committed: committed)
        extra = .observed(box)
        return box
    }
}
