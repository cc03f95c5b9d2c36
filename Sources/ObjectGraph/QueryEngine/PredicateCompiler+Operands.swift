extension PredicateCompiler {
    typealias OperandType = PredicateOperandType

    mutating func operand(_ operand: PredicateExpression.Operand) throws -> Operand {
        let text = PredicatePrinter.operand(operand)
        switch operand {
        case .constant(let value):
            let getter: PredicateGetter =
                value.storeValue.map { .constant($0) }
                ?? .list((value.elements ?? []).map { PredicateGetter.constant($0.storeValue ?? .null) })
            if let elements = value.elements, elements.contains(where: { $0.elements != nil }) {
                throw mismatch("uses a collection inside a collection ('\(text)'); flatten it", key: nil)
            }
            return Operand(getter: getter, type: .constant(value), constant: value, text: text)
        case .evaluatedObject:
            usesEvaluatedObject = true
            return Operand(
                getter: .evaluatedObject, type: objectType(entity, isCollection: false), constant: nil, text: text)
        case .variable(let name):
            let (index, variableEntity) = try variable(name)
            return Operand(
                getter: .variable(index), type: objectType(variableEntity, isCollection: false), constant: nil,
                text: text)
        case .keyPath(let base, let keys):
            guard !keys.isEmpty else { return try self.operand(base) }
            if let length = try stringLength(base, keys, text: text) { return length }
            if case .index = base { return try member(base, keys, text: text) }
            let root: PredicateGetter.PathRoot
            let rootEntity: EntityInfo
            switch base {
            case .evaluatedObject: (root, rootEntity) = (.object, entity)
            case .variable(let name):
                let (index, variableEntity) = try variable(name)
                (root, rootEntity) = (.variable(index), variableEntity)
            default:
                throw PersistenceError.unsupportedPredicate(
                    "a key path on '\(PredicatePrinter.operand(base))'", format: nil, position: nil)
            }
            let (path, type) = try resolve(keys, from: rootEntity, text: text)
            if case .object = root, path.hops.isEmpty, !path.lastIsToMany {
                return Operand(getter: .slot(path.last), type: type, constant: nil, text: text)
            }
            return Operand(getter: .path(root, path), type: type, constant: nil, text: text)
        case .aggregate(let elements):
            var getters: [PredicateGetter] = []
            var kinds: [OperandType.Kind] = []
            for element in elements {
                let compiled = try self.operand(element)
                guard !compiled.type.isCollection else {
                    throw mismatch("uses a collection inside '{…}' ('\(compiled.text)')", key: compiled.text)
                }
                getters.append(compiled.getter)
                kinds.append(compiled.type.kind)
            }
            let type = OperandType(kind: .init(common: kinds), isCollection: true, summary: "a list")
            return Operand(getter: .list(getters), type: type, constant: nil, text: text)
        case .collection(let base, let function, let keys):
            return try collection(base, function, keys, text: text)
        case .subquery(let collection, let variable, let predicate):
            let source = try self.operand(collection)
            guard source.type.isCollection, case .object(let name) = source.type.kind,
                let element = model.info(named: name)
            else {
                throw mismatch(
                    "runs a SUBQUERY over '\(source.text)', which is \(source.type.summary), not a to-many "
                        + "relationship", key: source.text)
            }
            variables.append((variable, element))
            defer { variables.removeLast() }
            let inner = try node(predicate)
            return Operand(
                getter: .subquery(source.getter, inner), type: objectType(element, isCollection: true),
                constant: nil, text: text)
        case .function(let name, let arguments):
            return try function(name, arguments, text: text)
        case .ternary(let condition, let whenTrue, let whenFalse):
            return try ternary(condition, whenTrue, whenFalse, text: text)
        case .index(let collection, let index):
            return try self.index(collection, index, text: text)
        }
    }

    /// `base.@function.keys`.
    private mutating func collection(
        _ base: PredicateExpression.Operand, _ function: PredicateExpression.CollectionFunction, _ keys: [String],
        text: String
    ) throws -> Operand {
        let compiled = try operand(base)
        let source = codableElements(compiled) ?? compiled
        guard source.type.isCollection else {
            throw mismatch(
                "applies @\(function.rawValue) to '\(source.text)', which is \(source.type.summary), not a "
                    + "collection", key: source.text)
        }
        var elementKind = source.type.kind
        var elementPath: CompiledPath?
        if !keys.isEmpty {
            guard case .object(let name) = source.type.kind, let element = model.info(named: name) else {
                throw mismatch(
                    "follows a key path from the elements of '\(source.text)', which are not objects", key: text)
            }
            let (path, type) = try resolve(keys, from: element, text: text)
            elementPath = path
            elementKind = type.kind
        }
        let kind: OperandType.Kind
        switch function {
        case .count:
            kind = .integer
        case .sum, .avg:
            guard elementKind.isNumeric || elementKind == .any else {
                throw mismatch("applies @\(function.rawValue) to '\(text)', whose values are not numbers", key: text)
            }
            kind =
                function == .avg && elementKind != .decimal
                ? .floating : (elementKind == .bool ? .integer : elementKind)
        case .min, .max:
            guard elementKind.isOrderable else {
                throw mismatch("applies @\(function.rawValue) to '\(text)', whose values do not order", key: text)
            }
            kind = elementKind
        }
        let type = OperandType(kind: kind, isCollection: false, summary: "the result of @\(function.rawValue)")
        if function == .count, case .path(let root, let path) = source.getter, path.lastIsToMany,
            !path.hops.contains(where: \.isToMany)
        {
            return Operand(getter: .relationshipCount(root, path), type: type, constant: nil, text: text)
        }
        return Operand(getter: .collection(source.getter, function, elementPath), type: type, constant: nil, text: text)
    }

    /// The innermost `SUBQUERY` variable named `name`.
    func variable(_ name: String) throws -> (Int, EntityInfo) {
        guard let index = variables.lastIndex(where: { $0.name == name }) else {
            throw PersistenceError.unboundPredicateVariable(name)
        }
        return (index, variables[index].entity)
    }

    func objectType(_ entity: EntityInfo, isCollection: Bool) -> OperandType {
        OperandType(
            kind: .object(entity.name), isCollection: isCollection,
            summary: isCollection ? "a collection of \(entity.name) objects" : "a \(entity.name) object")
    }

    /// Resolves `keys` from `start` to relationship hops and a final slot.
    func resolve(_ keys: [String], from start: EntityInfo, text: String) throws -> (CompiledPath, OperandType) {
        var current = start
        var hops: [CompiledPath.Hop] = []
        for (offset, key) in keys.enumerated() {
            guard let slot = current.slotByName[key] else {
                throw PersistenceError.predicateUnknownKey(key, path: text, entity: current.name)
            }
            let isLast = offset == keys.count - 1
            let throughToMany = hops.contains(where: \.isToMany)
            if current.isAttribute(slot) {
                guard isLast else {
                    throw PersistenceError.invalidPredicateKeyPath(
                        "continues past the attribute '\(current.name).\(key)'; only relationships can be followed",
                        key: text, entity: entity.name)
                }
                let attribute = current.attribute(at: slot)
                let type = OperandType(
                    kind: .init(attribute.type), isCollection: throughToMany,
                    summary: throughToMany
                        ? "a collection of \(attribute.type.rawValue) values" : attribute.type.rawValue)
                return (CompiledPath(hops: hops, last: slot, lastIsToMany: false, root: start.inheritanceRoot), type)
            }
            let relationship = current.relationship(at: slot)
            let destination = model.infos[relationship.destinationIndex]
            if isLast {
                let isToMany = relationship.description.isToMany
                return (
                    CompiledPath(hops: hops, last: slot, lastIsToMany: isToMany, root: start.inheritanceRoot),
                    objectType(destination, isCollection: throughToMany || isToMany)
                )
            }
            hops.append(
                CompiledPath.Hop(
                    slot: slot, isToMany: relationship.description.isToMany, destination: destination.inheritanceRoot))
            current = destination
        }
        preconditionFailure("resolve(_:from:text:) needs at least one key")
    }
}
