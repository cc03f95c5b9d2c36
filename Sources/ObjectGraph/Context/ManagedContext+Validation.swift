extension ManagedContext {
    /// Checks every object a save would write, collecting every failure into one error.
    func validate(inserted: [ManagedObject], updated: [ManagedObject], deleted: [ManagedObject]) throws {
        var failures: [PersistenceError] = []
        for object in inserted + updated {
            failures += requiredValueFailures(of: object)
            do {
                try object.validateForSave()
            } catch let error as PersistenceError {
                failures.append(error)
            } catch {
                failures.append(.validation("\(error)", object: object, underlying: error))
            }
        }
        for object in deleted {
            failures += denyRuleFailures(of: object)
        }
        guard failures.isEmpty else { throw PersistenceError.validationFailed(failures) }
    }

    private func requiredValueFailures(of object: ManagedObject) -> [PersistenceError] {
        var failures: [PersistenceError] = []
        let info = object.info
        for (slot, attribute) in info.description.attributes.enumerated()
        where !attribute.isOptional && object.values[slot].isNull {
            failures.append(.missingRequiredValue(object: object, key: attribute.name))
        }
        for (offset, relationship) in info.relationships.enumerated() {
            let description = relationship.description
            let count = object.relatedIDs(at: info.attributeCount + offset).count
            if count == 0 {
                if !description.isOptional {
                    failures.append(.missingRequiredValue(object: object, key: description.name))
                }
            } else if description.isToMany,
                description.minCount > 0 && count < description.minCount
                    || description.maxCount > 0 && count > description.maxCount
            {
                failures.append(.relationshipCount(object: object, relationship: description, count: count))
            }
        }
        return failures
    }

    private func denyRuleFailures(of object: ManagedObject) -> [PersistenceError] {
        var failures: [PersistenceError] = []
        for (offset, relationship) in object.info.relationships.enumerated()
        where relationship.description.deleteRule == .deny {
            let remaining = object.relatedIDs(at: object.info.attributeCount + offset).filter {
                !(registry[$0]?.isDeleted ?? false)
            }
            if !remaining.isEmpty {
                failures.append(.deleteDenied(object: object, relationship: relationship.description.name))
            }
        }
        return failures
    }
}
