import Foundation

/// One version of an Xcode Core Data model (`Name.xcdatamodel/contents`), read exactly: its
/// entities as ``EntityDescription``s, and what the XML holds beyond the stored schema (class
/// names, `userInfo`, transient attributes, fetch indexes, configurations, fetch request
/// templates, transformer names).
///
/// Each entity holds only its own properties and names its parent in
/// ``EntityDescription/superentityName``, as Core Data's XML does. ``makeModel()`` builds the
/// ``ManagedObjectModel``. Anything the import changed or left out is listed in ``notes``.
///
/// For example:
/// ```swift
/// let version = try XcodeModel(contentsOf: URL(fileURLWithPath: "Notes.xcdatamodeld"))
/// let model = try version.makeModel()
/// ```
///
/// Core Data: the source of an `NSManagedObjectModel` that Xcode compiles into a `.mom` file.
public struct XcodeModel: Sendable {
    /// The version's name: its `.xcdatamodel` folder name without the extension (`Notes 2`), or
    /// the file name of a `contents` file read on its own.
    public var name: String
    /// The file the version was read from, if it was read from one.
    public var fileURL: URL?
    /// The entities, in the order of the XML, with their import details.
    public var entities: [Entity]
    /// The named configurations and the entities each one holds, in the order of the XML.
    ///
    /// Core Data: `NSManagedObjectModel.configurations`, `entities(forConfigurationName:)`.
    public var configurations: [Configuration]
    /// The fetch request templates stored in the model.
    ///
    /// Core Data: `NSManagedObjectModel.fetchRequestTemplatesByName`.
    public var fetchRequestTemplates: [FetchRequestTemplate]
    /// The model's version identifier (`userDefinedModelVersionIdentifier`), if set.
    ///
    /// Core Data: `NSManagedObjectModel.versionIdentifiers`.
    public var versionIdentifier: String?
    /// One sentence for each thing the import changed or left out (an inverse that did not point
    /// back, a skipped fetched property, a default value that could not be read), naming the
    /// entity and property. Empty when the model was read as written.
    public var notes: [String]

    /// The entity descriptions, in the order of the XML.
    public var entityDescriptions: [EntityDescription] { entities.map(\.description) }

    /// The entity named `name`, if the model has one.
    public func entity(named name: String) -> Entity? { entities.first { $0.name == name } }

    /// Reads a model version from a `.xcdatamodeld` bundle (its current version), a
    /// `.xcdatamodel` folder, or a `contents` file.
    ///
    /// - Throws: `PersistenceError.Code.invalidModel` for a missing or unreadable file, malformed
    ///   XML (with ``PersistenceError/line``), or a model that cannot be expressed;
    ///   `unsupportedFormat` for a property the model has no concept for (a fetched property, a
    ///   derived or composite attribute) unless `options` skips them.
    public init(contentsOf url: URL, options: Options = Options()) throws {
        if url.pathExtension == "xcdatamodeld" {
            self = try XcodeModelBundle(contentsOf: url, options: options).currentVersion
            return
        }
        let contents = url.pathExtension == "xcdatamodel" ? url.appendingPathComponent("contents") : url
        let name =
            url.pathExtension == "xcdatamodel"
            ? url.deletingPathExtension().lastPathComponent
            : contents.deletingLastPathComponent().pathExtension == "xcdatamodel"
                ? contents.deletingLastPathComponent().deletingPathExtension().lastPathComponent
                : contents.deletingPathExtension().lastPathComponent
        let bytes = try Self.read(contents, folder: url)
        self = try XcodeModel(xml: bytes, name: name, fileURL: contents, options: options)
    }

    /// Reads a model version from the XML text of a `contents` file.
    ///
    /// - Throws: as ``init(contentsOf:options:)``.
    public init(xml: String, name: String = "Model", options: Options = Options()) throws {
        self = try XcodeModel(xml: Array(xml.utf8), name: name, fileURL: nil, options: options)
    }

    init(xml bytes: [UInt8], name: String, fileURL: URL?, options: Options) throws {
        let root = try MarkupReader.parse(bytes, file: fileURL)
        var parser = XcodeModelParser(file: fileURL, options: options)
        self = try parser.model(from: root, name: name)
    }

    init(
        name: String, fileURL: URL?, entities: [Entity], configurations: [Configuration],
        fetchRequestTemplates: [FetchRequestTemplate], versionIdentifier: String?, notes: [String]
    ) {
        self.name = name
        self.fileURL = fileURL
        self.entities = entities
        self.configurations = configurations
        self.fetchRequestTemplates = fetchRequestTemplates
        self.versionIdentifier = versionIdentifier
        self.notes = notes
    }

    /// Builds the model: every entity with its own properties, parents named by
    /// ``EntityDescription/superentityName``.
    ///
    /// - Throws: `PersistenceError.Code.invalidModel`, as ``ManagedObjectModel/init(entities:)``.
    public func makeModel() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: entityDescriptions)
    }

    private static func read(_ contents: URL, folder: URL) throws -> [UInt8] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: contents.path, isDirectory: &isDirectory) else {
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent("elements").path) {
                throw PersistenceError.unreadableModel(
                    folder,
                    problem: "it is in the Xcode 3 format (an 'elements' archive, no 'contents' XML); open it in "
                        + "Xcode and save it, which rewrites it as XML")
            }
            throw PersistenceError.unreadableModel(
                contents,
                problem: "there is no such file; pass a .xcdatamodeld bundle, a .xcdatamodel folder or "
                    + "its 'contents' file (a compiled .mom or .momd cannot be read)")
        }
        guard !isDirectory.boolValue else {
            throw PersistenceError.unreadableModel(
                contents,
                problem: "it is a folder; pass a .xcdatamodeld bundle, a .xcdatamodel folder or its "
                    + "'contents' file")
        }
        do {
            return Array(try Data(contentsOf: contents))
        } catch {
            throw PersistenceError.unreadableModel(contents, problem: "reading it failed (\(error))")
        }
    }
}
