extension XcodeModel {
    /// One entity of an Xcode model: its description and what the XML says beyond it.
    ///
    /// Core Data: `NSEntityDescription` with its `userInfo`, `managedObjectClassName` and
    /// `indexes`.
    public struct Entity: Sendable, Hashable {
        /// The entity as the model holds it: its own stored attributes and relationships.
        public var description: EntityDescription
        /// The class Xcode's code generation names (`representedClassName`), without a module
        /// prefix or leading dot; `nil` when the XML names none.
        ///
        /// Core Data: `NSEntityDescription.managedObjectClassName`.
        public var className: String?
        /// Every attribute of the XML, in order, transient ones included.
        public var attributes: [Attribute]
        /// The relationships' import details, in order.
        public var relationships: [Relationship]
        /// The fetched properties, when ``Options/skipsUnsupportedProperties`` kept them out of
        /// the model (otherwise the import refuses them).
        public var fetchedProperties: [FetchedProperty]
        /// The fetch indexes (`<fetchIndex>`), single-property ones included (those also set
        /// ``AttributeDescription/isIndexed``).
        ///
        /// Core Data: `NSEntityDescription.indexes`.
        public var fetchIndexes: [FetchIndex]
        /// The entity's user info.
        ///
        /// Core Data: `NSEntityDescription.userInfo`.
        public var userInfo: [String: String]

        /// The entity's name.
        public var name: String { description.name }
        /// The transient attributes: declared in the XML, kept out of the model and its stores.
        public var transientAttributes: [Attribute] { attributes.filter(\.isTransient) }
    }

    /// One attribute of the XML, with the settings the ``AttributeDescription`` has no place for.
    ///
    /// Core Data: `NSAttributeDescription`.
    public struct Attribute: Sendable, Hashable {
        /// The attribute as the model holds it (for a transient attribute, as it would be held).
        public var description: AttributeDescription
        /// The type as Xcode writes it (`Integer 32`, `Transformable`, `Binary`).
        public var xcodeType: String
        /// Whether the attribute is transient: Core Data keeps its value in memory only. The
        /// model has no transient attributes, so the import leaves it out of the entity.
        ///
        /// Core Data: `NSPropertyDescription.isTransient`.
        public var isTransient: Bool
        /// Whether Xcode's code generation uses a scalar (`Int64`, `Bool`) rather than an object.
        public var usesScalarValueType: Bool?
        /// A Transformable attribute's transformer, if named.
        ///
        /// Core Data: `NSAttributeDescription.valueTransformerName`.
        public var valueTransformerName: String?
        /// A Transformable attribute's custom class (`[String]`, `UIColor`), if named.
        ///
        /// Core Data: `NSAttributeDescription.attributeValueClassName`.
        public var customClassName: String?
        /// Whether Core Data may keep large binary values in files beside the store. ObjectGraph
        /// keeps every value in the store.
        ///
        /// Core Data: `NSAttributeDescription.allowsExternalBinaryDataStorage`.
        public var allowsExternalBinaryDataStorage: Bool
        /// The attribute's user info.
        ///
        /// Core Data: `NSPropertyDescription.userInfo`.
        public var userInfo: [String: String]

        /// The attribute's name.
        public var name: String { description.name }
    }

    /// One relationship of the XML, with its user info.
    ///
    /// Core Data: `NSRelationshipDescription`.
    public struct Relationship: Sendable, Hashable {
        /// The relationship as the model holds it.
        public var description: RelationshipDescription
        /// The entity that holds the inverse (`inverseEntity`), if the XML names one.
        public var inverseEntity: String?
        /// The relationship's user info.
        ///
        /// Core Data: `NSPropertyDescription.userInfo`.
        public var userInfo: [String: String]

        /// The relationship's name.
        public var name: String { description.name }
    }

    /// A fetched property: a fetch of `entityName` with a predicate that may use
    /// `$FETCH_SOURCE` (the object) and `$FETCHED_PROPERTY`.
    ///
    /// Core Data: `NSFetchedPropertyDescription`.
    public struct FetchedProperty: Sendable, Hashable {
        /// The property's name.
        public var name: String
        /// The entity it fetches.
        public var entityName: String
        /// The predicate in Core Data's format syntax, if any.
        public var predicateFormat: String?

        /// Creates a fetched property.
        public init(name: String, entityName: String, predicateFormat: String?) {
            self.name = name
            self.entityName = entityName
            self.predicateFormat = predicateFormat
        }
    }

    /// A fetch index: named, over one or more properties, each ascending or descending.
    ///
    /// Core Data: `NSFetchIndexDescription`.
    public struct FetchIndex: Sendable, Hashable {
        /// One property of the index, in order.
        public struct Element: Sendable, Hashable {
            /// The property's name, or the expression for an expression element.
            public var property: String
            /// Whether the element sorts ascending.
            public var isAscending: Bool

            /// Creates an index element.
            public init(property: String, isAscending: Bool) {
                self.property = property
                self.isAscending = isAscending
            }
        }

        /// The index's name.
        public var name: String
        /// The index's properties, in order.
        public var elements: [Element]

        /// Creates a fetch index.
        public init(name: String, elements: [Element]) {
            self.name = name
            self.elements = elements
        }
    }

    /// A named set of entities.
    ///
    /// Core Data: a model configuration.
    public struct Configuration: Sendable, Hashable {
        /// The configuration's name.
        public var name: String
        /// Its entities' names, in the order of the XML.
        public var entityNames: [String]
        /// Whether Xcode marks the configuration as used with CloudKit.
        public var isUsedWithCloudKit: Bool

        /// Creates a configuration.
        public init(name: String, entityNames: [String], isUsedWithCloudKit: Bool) {
            self.name = name
            self.entityNames = entityNames
            self.isUsedWithCloudKit = isUsedWithCloudKit
        }
    }

    /// A fetch request stored in the model.
    ///
    /// Core Data: an entry of `NSManagedObjectModel.fetchRequestTemplatesByName`.
    public struct FetchRequestTemplate: Sendable, Hashable {
        /// The template's name.
        public var name: String
        /// The entity it fetches.
        public var entityName: String
        /// The predicate in Core Data's format syntax (with `$VARIABLE`s), if any.
        public var predicateFormat: String?
        /// The most objects it returns (0 for no limit).
        public var fetchLimit: Int

        /// Creates a fetch request template.
        public init(name: String, entityName: String, predicateFormat: String?, fetchLimit: Int) {
            self.name = name
            self.entityName = entityName
            self.predicateFormat = predicateFormat
            self.fetchLimit = fetchLimit
        }
    }
}
