import Foundation

extension ManagedObject {
    struct KeyPathProbeProblem: Error {
        let reason: String
    }

    /// The name of the `@Attribute` or `@Relationship` property that `keyPath` reads: reads it
    /// on a throwaway instance whose wrappers have no slots yet, and finds the one wrapper that
    /// resolved its slot.
    ///
    /// With `checkingStoredValue`, a key path to an attribute must also yield the stored value
    /// itself for a few sample values, so that a computed property over one attribute (such as
    /// `price * 2`) is not taken for the attribute.
    static func propertyName<Object: ManagedObject>(
        readBy keyPath: PartialKeyPath<Object>, checkingStoredValue: Bool = false
    ) -> Result<String, KeyPathProbeProblem> {
        let description: EntityDescription
        do {
            description = try Object.derivedEntityDescription(withIndexes: false)
        } catch {
            return .failure(KeyPathProbeProblem(reason: (error as? PersistenceError)?.message ?? "\(error)"))
        }
        let info = EntityInfo(detached: description)
        var values = info.defaultValues
        for (slot, attribute) in description.attributes.enumerated() where values[slot].isNull && !attribute.isOptional
        {
            values[slot] = placeholder(for: attribute.type)
        }
        let probe = Object.init(entity: info.materializingDescription, insertInto: nil)
        for (label, wrapper) in derivableProperties(of: probe) {
            // An optional attribute with a plain Swift type (`@Attribute(optional: true)`) cannot
            // read its nil default: it reads the placeholder instead.
            guard let slot = info.slotByName[label],
                let readable = wrapper.readableValue(from: values[slot])
                    ?? (slot < description.attributes.count
                        ? wrapper.readableValue(from: placeholder(for: description.attributes[slot].type)) : nil)
            else {
                return .failure(
                    KeyPathProbeProblem(
                        reason: "the required attribute '\(label)' has no default value of its type to probe with"))
            }
            values[slot] = readable
        }
        probe.values = values
        _ = probe[keyPath: keyPath]
        let touched = derivableProperties(of: probe).filter { $0.wrapper.cachedSlot >= 0 }
        guard touched.count == 1, let (name, wrapper) = touched.first else {
            return .failure(
                KeyPathProbeProblem(
                    reason: touched.isEmpty
                        ? "it reads no @Attribute or @Relationship property" : "it reads several properties"))
        }
        let valueType = type(of: keyPath).valueType
        guard wrapper.valueType == valueType else {
            return .failure(
                KeyPathProbeProblem(reason: "it reads '\(name)' but yields a \(valueType), not the property's value"))
        }
        if checkingStoredValue, let slot = info.slotByName[name], slot < description.attributes.count {
            // Only samples the property can read (an enum reads only its raw values).
            for sample in samples(for: description.attributes[slot].type)
            where wrapper.readableValue(from: sample) == sample {
                values[slot] = sample
                probe.values = values
                guard let read = probe[keyPath: keyPath] as? any AttributeValue, read.storeValue == sample else {
                    return .failure(KeyPathProbeProblem(reason: "it computes a value from '\(name)'"))
                }
            }
        }
        return .success(name)
    }

    /// Values of each attribute type that a computed property over the attribute would likely
    /// change (case, sign, scale, negation); none for types without a fixed representation.
    private static func samples(for type: AttributeType) -> [StoreValue] {
        switch type {
        case .string: [.string("Probe 1"), .string("x")]
        case .boolean: [.bool(true), .bool(false)]
        case .integer16, .integer32, .integer64: [.int(7), .int(-3)]
        case .float: [.float(2.5), .float(-1.25)]
        case .double: [.double(2.5), .double(-1.25)]
        case .decimal: [.decimal(Decimal(5) / 2), .decimal(-3)]
        case .date:
            [.date(Date(timeIntervalSinceReferenceDate: 86_400.5)), .date(Date(timeIntervalSinceReferenceDate: -7))]
        case .uuid: [.uuid(UUID(uuid: (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16)))]
        case .uri: [.url(URL(string: "https://probe.example/a")!)]
        case .binary, .codable: []
        }
    }

    /// The `@Attribute` and `@Relationship` wrappers of an instance with their property names,
    /// superclass properties first.
    private static func derivableProperties(of object: ManagedObject) -> [(label: String, wrapper: DerivableProperty)] {
        var mirrors: [Mirror] = []
        var mirror: Mirror? = Mirror(reflecting: object)
        while let current = mirror {
            mirrors.append(current)
            mirror = current.superclassMirror
        }
        var result: [(String, DerivableProperty)] = []
        for mirror in mirrors.reversed() {
            for child in mirror.children {
                guard let label = child.label, label.hasPrefix("_"), let wrapper = child.value as? DerivableProperty
                else { continue }
                result.append((String(label.dropFirst()), wrapper))
            }
        }
        return result
    }

    /// A value of each attribute type, for required attributes without a default: its zero, or
    /// a fixed UUID, URL or empty codable data.
    private static func placeholder(for type: AttributeType) -> StoreValue {
        if let zero = type.zeroValue { return zero }
        switch type {
        case .uuid: return .uuid(UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)))
        case .uri: return .url(URL(string: "about:blank")!)
        default: return .data(Data())
        }
    }
}
