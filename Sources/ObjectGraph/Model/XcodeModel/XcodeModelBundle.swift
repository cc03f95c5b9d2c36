import Foundation

/// An Xcode model bundle (`Name.xcdatamodeld`): every version, in order, and the current one.
///
/// Versions are ordered as Xcode lists them, by name with numbers compared as numbers
/// (`Notes`, `Notes 2`, …, `Notes 10`), which is the order in which a store written with an
/// older version migrates to the current one. The current version is the one `.xccurrentversion`
/// names; when that file is missing, empty or names no version of the bundle, it is the last
/// version, and ``currentVersionNote`` says so.
///
/// For example:
/// ```swift
/// let bundle = try XcodeModelBundle(contentsOf: URL(fileURLWithPath: "Notes.xcdatamodeld"))
/// let models = try bundle.versions.map { try $0.makeModel() }  // oldest first
/// ```
///
/// Core Data: a versioned model (`.momd`) and `NSManagedObjectModel(contentsOf:)`.
public struct XcodeModelBundle: Sendable {
    /// The bundle's location.
    public var url: URL
    /// Every version, oldest first.
    public var versions: [XcodeModel]
    /// The index of the current version in ``versions``.
    public var currentVersionIndex: Int
    /// Why the current version was chosen when `.xccurrentversion` did not name it (the file is
    /// missing or empty, or names no version of the bundle); `nil` when it did.
    public var currentVersionNote: String?

    /// The names of versions left out of ``versions`` because they are in the Xcode 3 format (an
    /// `elements` archive rather than `contents` XML), oldest first: Xcode converts a version to
    /// XML when it is opened and saved. A bundle whose current version is one of them is refused.
    public var skippedVersionNames: [String]

    /// The current version.
    public var currentVersion: XcodeModel { versions[currentVersionIndex] }

    /// Reads every version of the bundle at `url`.
    ///
    /// - Throws: `PersistenceError.Code.invalidModel` for a bundle with no versions, a malformed
    ///   `.xccurrentversion` or version, or a version that cannot be expressed;
    ///   `unsupportedFormat` as ``XcodeModel/init(contentsOf:options:)``.
    public init(contentsOf url: URL, options: XcodeModel.Options = XcodeModel.Options()) throws {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: url.path)
        } catch {
            throw PersistenceError.unreadableModel(
                url, problem: "it is not a readable folder (\(error)); pass the .xcdatamodeld bundle")
        }
        let folders = Self.naturallyOrdered(names.filter { $0.hasSuffix(".xcdatamodel") })
        guard !folders.isEmpty else {
            throw PersistenceError.unreadableModel(url, problem: "the bundle holds no .xcdatamodel version")
        }
        self.url = url
        var versions: [XcodeModel] = []
        var readable: [String] = []
        var skipped: [String] = []
        for folder in folders {
            let location = url.appendingPathComponent(folder)
            if !FileManager.default.fileExists(atPath: location.appendingPathComponent("contents").path),
                FileManager.default.fileExists(atPath: location.appendingPathComponent("elements").path)
            {
                skipped.append(String(folder.dropLast(12)))
                continue
            }
            versions.append(try XcodeModel(contentsOf: location, options: options))
            readable.append(folder)
        }
        self.versions = versions
        self.skippedVersionNames = skipped
        let versionFile = url.appendingPathComponent(".xccurrentversion")
        var named: String?
        if FileManager.default.fileExists(atPath: versionFile.path) {
            let bytes: [UInt8]
            do {
                bytes = Array(try Data(contentsOf: versionFile))
            } catch {
                throw PersistenceError.unreadableModel(versionFile, problem: "reading it failed (\(error))")
            }
            if !bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x09 || $0 == 0x0D }) {
                named = try Self.currentVersionName(in: MarkupReader.parse(bytes, file: versionFile), file: versionFile)
            }
        }
        guard !readable.isEmpty else {
            throw PersistenceError.unreadableModel(
                url,
                problem: "every version is in the Xcode 3 format (an 'elements' archive, no 'contents' XML); open "
                    + "the model in Xcode and save it, which rewrites it as XML")
        }
        if let name = named.map({ $0.hasSuffix(".xcdatamodel") ? String($0.dropLast(12)) : $0 }),
            skipped.contains(name)
        {
            throw PersistenceError.unreadableModel(
                url,
                problem: "its current version '\(name)' is in the Xcode 3 format (an 'elements' archive, no "
                    + "'contents' XML); open the model in Xcode and save it, which rewrites it as XML")
        }
        let last = readable.count - 1
        let lastName = readable[last]
        switch named {
        case .some(let name) where !name.isEmpty:
            if let index = readable.firstIndex(of: name) ?? readable.firstIndex(of: name + ".xcdatamodel") {
                currentVersionIndex = index
                currentVersionNote = nil
            } else {
                currentVersionIndex = last
                currentVersionNote =
                    ".xccurrentversion names '\(name)', which is not in the bundle; the last version, "
                    + "'\(lastName)', was taken."
            }
        default:
            currentVersionIndex = last
            currentVersionNote =
                (named == nil ? ".xccurrentversion is missing or empty" : ".xccurrentversion names no version")
                + "; the last version in Xcode's order, '\(lastName)', was taken."
        }
    }

    /// The `_XCCurrentVersionName` string of an XML property list; `""` if it has none.
    static func currentVersionName(in plist: MarkupElement, file: URL?) throws -> String {
        guard plist.name == "plist", let dictionary = plist.firstChild(named: "dict") else {
            throw PersistenceError.malformedMarkup(
                file: file, line: plist.line, problem: "the .xccurrentversion file is not a property list dictionary")
        }
        let items = dictionary.children
        for (offset, item) in items.enumerated() where item.name == "key" && item.text == "_XCCurrentVersionName" {
            guard offset + 1 < items.count, items[offset + 1].name == "string" else { return "" }
            return items[offset + 1].text.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        return ""
    }

    /// `names` in Xcode's order: compared piece by piece, runs of digits as numbers.
    static func naturallyOrdered(_ names: [String]) -> [String] {
        names.sorted { lhs, rhs in
            let left = pieces(lhs)
            let right = pieces(rhs)
            for (a, b) in zip(left, right) where a != b {
                switch (a, b) {
                case (.number(let x), .number(let y)): return x < y
                case (.text(let x), .text(let y)): return x < y
                case (.number, .text): return true
                case (.text, .number): return false
                }
            }
            return left.count != right.count ? left.count < right.count : lhs < rhs
        }
    }

    private enum Piece: Equatable {
        case text(String)
        case number(Decimal)
    }

    private static func pieces(_ name: String) -> [Piece] {
        let stem = name.hasSuffix(".xcdatamodel") ? String(name.dropLast(12)) : name
        var result: [Piece] = []
        var current = ""
        var isDigits = false
        for character in stem {
            let digit = character.isASCII && character.isNumber
            if !current.isEmpty && digit != isDigits {
                result.append(isDigits ? .number(Decimal(string: current) ?? 0) : .text(current))
                current = ""
            }
            isDigits = digit
            current.append(character)
        }
        if !current.isEmpty { result.append(isDigits ? .number(Decimal(string: current) ?? 0) : .text(current)) }
        return result
    }
}
