import Foundation

extension ManagedObjectModel {
    /// Creates a model from an Xcode Core Data model (as ``init(contentsOf:options:)``) with
    /// typed classes bound to its entities by class name (see ``XcodeModel/makeModel(classes:)``).
    ///
    /// For example:
    /// ```swift
    /// let model = try ManagedObjectModel(contentsOf: url, classes: [Note.self, Folder.self])
    /// ```
    ///
    /// - Throws: as ``init(contentsOf:options:)`` and ``XcodeModel/makeModel(classes:)``.
    ///
    /// Core Data: `NSManagedObjectModel(contentsOf:)` with generated `NSManagedObject` subclasses.
    public init(
        contentsOf url: URL, classes: [ManagedObject.Type], options: XcodeModel.Options = XcodeModel.Options()
    ) throws {
        self = try XcodeModel(contentsOf: url, options: options).makeModel(classes: classes)
    }
}
