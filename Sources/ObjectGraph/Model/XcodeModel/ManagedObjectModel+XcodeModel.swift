import Foundation

extension ManagedObjectModel {
    /// Creates a model from an Xcode Core Data model: a `.xcdatamodeld` bundle (its current
    /// version), a `.xcdatamodel` folder, or its `contents` file.
    ///
    /// Objects of the model's entities are `ManagedObject`s, read and written with
    /// `value(forKey:)` and `setValue(_:forKey:)`; pass `classes:` (the object layer's overload)
    /// to bind typed subclasses by the entities' class names. What the import changed or left
    /// out (and which version it took when `.xccurrentversion` names none) is reported by
    /// ``XcodeModel`` and ``XcodeModelBundle``, which this reads through.
    ///
    /// For example:
    /// ```swift
    /// let model = try ManagedObjectModel(contentsOf: URL(fileURLWithPath: "Notes.xcdatamodeld"))
    /// ```
    ///
    /// - Throws: `PersistenceError.Code.invalidModel` for a missing or malformed file (with its
    ///   ``PersistenceError/line``) or a model that cannot be expressed; `unsupportedFormat` for a
    ///   fetched property or a derived or composite attribute (see ``XcodeModel/Options``).
    ///
    /// Core Data: `NSManagedObjectModel(contentsOf:)`.
    public init(contentsOf url: URL, options: XcodeModel.Options = XcodeModel.Options()) throws {
        self = try XcodeModel(contentsOf: url, options: options).makeModel()
    }

    /// The versions of an Xcode model bundle (`.xcdatamodeld`) as models, oldest first, named
    /// by their `.xcdatamodel` folders: the steps of a migration to the current version.
    ///
    /// - Throws: as ``init(contentsOf:options:)``.
    public static func versions(
        contentsOf url: URL, options: XcodeModel.Options = XcodeModel.Options()
    ) throws -> [(name: String, model: ManagedObjectModel)] {
        try XcodeModelBundle(contentsOf: url, options: options).versions.map { ($0.name, try $0.makeModel()) }
    }
}
