import Foundation

extension ManagedContext {
    /// Checks every object a save would write, collecting every failure into one error.
    ///
    /// Property checks (required values, relationship counts, attribute rules, `deny` rules) run
    /// first; an object's validation method runs only if its properties passed, so that an
    /// override never reads a required attribute that has no value (in Core Data,
    /// `super.validateForInsert()` throws before the override's own checks run).
    func validate(inserted: [ManagedObject], updated: [ManagedObject], deleted: [ManagedObject]) throws {
        var failures: [PersistenceError] = []
        let validInserted = inserted.filter { Self.appendPropertyFailures(of: $0, to: &failures) }
        let validUpdated = updated.filter { Self.appendPropertyFailures(of: $0, to: &failures) }
        for object in validInserted { appendHookFailures(of: object, to: &failures) { try $0.validateForInsert() } }
        for object in validUpdated { appendHookFailures(of: object, to: &failures) { try $0.validateForUpdate() } }
        for object in deleted {
            let denied = denyRuleFailures(of: object)
            if denied.isEmpty {
                appendHookFailures(of: object, to: &failures) { try $0.validateForDelete() }
            } else {
                failures += denied
            }
        }
        guard failures.isEmpty else { throw PersistenceError.validationFailed(failures) }
    }

    /// Appends an object's property failures (an abstract entity, required values, relationship
    /// counts and attribute rules); returns whether it had none.
    static func appendPropertyFailures(of object: ManagedObject, to failures: inout [PersistenceError]) -> Bool {
        let count = failures.count
        if object.info.description.isAbstract {
            failures.append(.abstractEntityInstance(objectID: object.objectID))
        }
        appendRequiredValueFailures(of: object, to: &failures)
        if !object.info.validatedSlots.isEmpty { failures += ruleFailures(of: object) }
        return failures.count == count
    }

    /// The failures an object's own validation method reports. The method's default
    /// implementation does not check the properties again.
    private func appendHookFailures(
        of object: ManagedObject, to failures: inout [PersistenceError], _ hook: (ManagedObject) throws -> Void
    ) {
        object.flags.isInValidationHook = true
        defer { object.flags.isInValidationHook = false }
        do {
            try hook(object)
        } catch let error as PersistenceError {
            failures += error.detailedErrors.count > 1 ? error.detailedErrors : [error]
        } catch {
            failures.append(.appValidationFailed(error, objectID: object.objectID))
        }
    }

    /// Minimum, maximum, length and pattern of every attribute with rules.
    private static func ruleFailures(of object: ManagedObject) -> [PersistenceError] {
        var failures: [PersistenceError] = []
        let info = object.info
        for slot in info.validatedSlots {
            let value = object.values[slot]
            guard !value.isNull else { continue }
            let attribute = info.attribute(at: slot)
            let rules = attribute.validation
            if let minimum = rules.minimum, StoreValue.compare(value, minimum) != .orderedDescending,
                StoreValue.compare(value, minimum) != .orderedSame
            {
                failures.append(
                    .ruleBroken(objectID: object.objectID, key: attribute.name, rule: "is below its minimum"))
            }
            if let maximum = rules.maximum, StoreValue.compare(value, maximum) != .orderedAscending,
                StoreValue.compare(value, maximum) != .orderedSame
            {
                failures.append(
                    .ruleBroken(objectID: object.objectID, key: attribute.name, rule: "is above its maximum"))
            }
            if let length = rules.length {
                let count: Int
                switch value {
                case .string(let text): count = text.count
                case .data(let data): count = data.count
                default: count = length.lowerBound
                }
                if !length.contains(count) {
                    failures.append(
                        .ruleBroken(
                            objectID: object.objectID, key: attribute.name,
                            rule: "has length \(count), outside the allowed \(length.lowerBound)...\(length.upperBound)"
                        ))
                }
            }
            if let pattern = info.patterns[slot], case .string(let text) = value {
                let range = NSRange(text.startIndex..<text.endIndex, in: text)
                let match = pattern.firstMatch(in: text, options: [.anchored], range: range)
                if match?.range != range {
                    failures.append(
                        .ruleBroken(objectID: object.objectID, key: attribute.name, rule: "does not match its pattern"))
                }
            }
        }
        return failures
    }

    private static func appendRequiredValueFailures(
        of object: ManagedObject, to failures: inout [PersistenceError]
    ) {
        let info = object.info
        for slot in info.requiredAttributeSlots where object.values[slot].isNull {
            failures.append(.missingRequiredValue(objectID: object.objectID, key: info.attribute(at: slot).name))
        }
        // Indexed rather than iterated, so that no relationship description is copied.
        for offset in info.relationships.indices {
            let count: Int
            switch object.values[info.attributeCount + offset] {
            case .object: count = 1
            case .objects(let ids): count = ids.count
            default: count = 0
            }
            if count == 0 {
                if !info.relationships[offset].description.isOptional {
                    failures.append(
                        .missingRequiredValue(
                            objectID: object.objectID, key: info.relationships[offset].description.name))
                }
            } else if info.relationships[offset].description.isToMany {
                let minCount = info.relationships[offset].description.minCount
                let maxCount = info.relationships[offset].description.maxCount
                if minCount > 0 && count < minCount || maxCount > 0 && count > maxCount {
                    failures.append(
                        .relationshipCount(
                            objectID: object.objectID, relationship: info.relationships[offset].description,
                            count: count))
                }
            }
        }
    }

    func denyRuleFailures(of object: ManagedObject) -> [PersistenceError] {
        guard object.info.hasDenyRule else { return [] }
        var failures: [PersistenceError] = []
        for (offset, relationship) in object.info.relationships.enumerated()
        where relationship.description.deleteRule == .deny {
            let remaining = object.relatedIDs(at: object.info.attributeCount + offset).filter {
                !(registry[$0]?.isDeleted ?? false)
            }
            if !remaining.isEmpty {
                failures.append(.deleteDenied(objectID: object.objectID, relationship: relationship.description.name))
            }
        }
        return failures
    }
}
