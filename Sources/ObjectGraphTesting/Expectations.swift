import ObjectGraph

/// A failed expectation of the testing kit, with a readable explanation. Throwing it fails the
/// test in Swift Testing and in XCTest alike.
public struct ExpectationFailure: Error, CustomStringConvertible {
    public let description: String
}

extension ManagedContext {
    /// Fails unless the context has no unsaved inserts, updates or deletes.
    ///
    /// - Throws: ``ExpectationFailure`` listing the unsaved objects.
    public func expectNoUnsavedChanges() throws {
        guard hasChanges else { return }
        func list(_ objects: Set<ManagedObject>) -> String {
            objects.map(\.objectID.description).sorted().joined(separator: ", ")
        }
        var lines = ["The context has unsaved changes:"]
        if !insertedObjects.isEmpty { lines.append("  inserted: \(list(insertedObjects))") }
        if !updatedObjects.isEmpty { lines.append("  updated:  \(list(updatedObjects))") }
        if !deletedObjects.isEmpty { lines.append("  deleted:  \(list(deletedObjects))") }
        throw ExpectationFailure(description: lines.joined(separator: "\n"))
    }
}

extension PersistentContainer {
    /// Fails unless the store holds exactly these objects of `entityName`, in any order. Each
    /// expected object lists the keys to compare (the others are not compared), with values
    /// written as `value(forKey:)` returns them or as literals (`"apple"`, `120`, `nil`).
    ///
    /// For example:
    /// ```swift
    /// try container.expectStore(holds: "Fruit", [["name": "apple", "price": 120], ["name": "pear"]])
    /// ```
    ///
    /// - Throws: ``ExpectationFailure`` with a diff: the objects missing from the store and the
    ///   stored objects that were not expected; the store's read errors, as
    ///   ``PersistentContainer/readCommittedSnapshot()``.
    public func expectStore(holds entityName: String, _ expected: [[String: Any?]]) throws {
        let snapshot = try readCommittedSnapshot()
        guard let entity = model.entity(named: entityName) else {
            throw ExpectationFailure(description: "The model has no entity '\(entityName)'.")
        }
        let names = entity.attributes.map(\.name)
        var stored: [[String: String]] = []
        snapshot.forEachRecord(ofEntity: entityName) { record in
            var fields: [String: String] = [:]
            for (index, name) in names.enumerated() { fields[name] = Self.text(record.values[index]) }
            stored.append(fields)
        }
        var unmatched = stored
        var missing: [String] = []
        for object in expected {
            let wanted = object.mapValues { Self.text(any: $0) }
            if let index = unmatched.firstIndex(where: { candidate in
                wanted.allSatisfy { candidate[$0.key] == $0.value }
            }) {
                unmatched.remove(at: index)
            } else {
                missing.append(Self.render(wanted))
            }
        }
        guard !missing.isEmpty || !unmatched.isEmpty else { return }
        var lines = ["The store holds \(stored.count) \(entityName) objects; \(expected.count) were expected."]
        for line in missing { lines.append("  - missing:    \(line)") }
        for object in unmatched { lines.append("  + unexpected: \(Self.render(object))") }
        throw ExpectationFailure(description: lines.joined(separator: "\n"))
    }

    /// The store's committed contents as the JSON store writes them: stable and byte-identical
    /// for equal data, for golden files.
    public func storeSnapshotJSON() -> String {
        committedSnapshot().jsonDocument(prettyPrinted: true)
    }

    private static func render(_ fields: [String: String]) -> String {
        "{" + fields.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + "}"
    }

    private static func text(_ value: StoreValue) -> String {
        switch value {
        case .null: "nil"
        case .bool(let flag): "\(flag)"
        case .int(let number): "\(number)"
        case .float(let number): "\(Double(number))"
        case .double(let number): "\(number)"
        case .string(let string): string.debugDescription
        case .decimal(let number): "\(number)"
        case .date(let date): "\(date.timeIntervalSinceReferenceDate)"
        case .data(let data): "\(data.count) bytes"
        case .uuid(let uuid): uuid.uuidString
        case .url(let url): url.absoluteString
        case .object(let id): id.description
        case .objects(let ids): ids.description
        }
    }

    private static func text(any value: Any?) -> String {
        guard let value else { return "nil" }
        if let stored = value as? StoreValue { return text(stored) }
        if let attribute = value as? any AttributeValue { return text(attribute.storeValue) }
        if let integer = value as? any BinaryInteger, let exact = Int64(exactly: integer) { return "\(exact)" }
        if let number = value as? any BinaryFloatingPoint { return "\(Double(number))" }
        return "\(value)"
    }
}
