import Foundation

extension SortDescriptor {
    /// Creates a sort descriptor for a typed property of a `ManagedObject` subclass.
    ///
    /// The key path must name an `@Attribute` property of `Object` itself; for key paths through
    /// relationships use ``init(key:ascending:comparison:)`` with a dotted key such as
    /// `"basket.label"`.
    ///
    /// For example:
    /// ```swift
    /// request.sortDescriptors = [SortDescriptor(\Fruit.price, order: .reverse)]
    /// ```
    ///
    /// In a file that also imports Foundation, Foundation's `SortDescriptor<Root>(_:order:)`
    /// matches the same call: write it where a `[FetchSortDescriptor]` is expected (as above), or
    /// spell it `FetchSortDescriptor(\Fruit.price)`.
    ///
    /// The property is found by reading the key path on a throwaway instance and seeing which
    /// property's storage it touched, so the key path must read one stored property directly. A
    /// computed property that reads exactly one attribute is indistinguishable from it (and sorts
    /// by that attribute). A key path that reads no `@Attribute` or `@Relationship`
    /// property, or several (such as one through a relationship), or a class with a required
    /// attribute of a type that has no value to probe with (a non-`CaseIterable` enum or a
    /// `Codable` struct without a default), makes a descriptor that a fetch refuses with
    /// `PersistenceError.Code.invalidFetchRequest`, naming the key path and the reason.
    ///
    /// Core Data: `NSSortDescriptor(keyPath:ascending:)`; Foundation:
    /// `SortDescriptor(_:order:)`.
    public init<Object: ManagedObject, Value>(
        _ keyPath: KeyPath<Object, Value>, order: SortOrder = .forward, comparison: Comparison = .caseSensitive
    ) {
        self.init(keyPath as PartialKeyPath<Object>, order: order, comparison: comparison)
    }

    /// A descriptor for the property `keyPath` reads, or one that records why it names none.
    init<Object: ManagedObject>(_ keyPath: PartialKeyPath<Object>, order: SortOrder, comparison: Comparison) {
        switch Object.propertyName(readBy: keyPath) {
        case .success(let name):
            self.init(key: name, ascending: order == .forward, comparison: comparison)
        case .failure(let problem):
            self.init(key: "\(keyPath)", ascending: order == .forward, comparison: comparison)
            keyPathProblem =
                "the key path reads no single stored property of \(Object.self) (\(problem.reason)); "
                + "sort with FetchSortDescriptor(key:ascending:comparison:) and the property's name "
                + "or a dotted key path such as 'basket.label'"
        }
    }
}

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
        let description = Object.derivedEntityDescription()
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

    /// A value of each attribute type, for required attributes without a default.
    private static func placeholder(for type: AttributeType) -> StoreValue {
        switch type {
        case .string: .string("")
        case .boolean: .bool(false)
        case .integer16, .integer32, .integer64: .int(0)
        case .float: .float(0)
        case .double: .double(0)
        case .decimal: .decimal(0)
        case .date: .date(Date(timeIntervalSinceReferenceDate: 0))
        case .binary, .codable: .data(Data())
        case .uuid: .uuid(UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)))
        case .uri: .url(URL(string: "about:blank")!)
        }
    }
}
