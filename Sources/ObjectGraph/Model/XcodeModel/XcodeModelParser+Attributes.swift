import Foundation

extension XcodeModelParser {
    /// One `<attribute>`; `nil` for a skipped derived or composite attribute.
    mutating func attribute(_ element: MarkupElement, entity: String) throws -> XcodeModel.Attribute? {
        let name = element[attribute: "name"] ?? ""
        let xcodeType = element[attribute: "attributeType"] ?? "Undefined"
        let isTransient = element[attribute: "transient"] == "YES"
        if element[attribute: "derived"] == "YES" {
            try unsupported(
                "derived attribute", entity: entity, property: name, line: element.line,
                fix: "Compute the value in the object's willSave() into a stored attribute")
            return nil
        }
        if xcodeType == "Composite" {
            try unsupported(
                "composite attribute", entity: entity, property: name, line: element.line,
                fix: "Declare it as a Codable struct stored in one attribute")
            return nil
        }
        let customClassName = element[attribute: "customClassName"].flatMap { $0.isEmpty ? nil : $0 }
        guard let type = Self.attributeType(xcodeType, customClassName: customClassName, isTransient: isTransient)
        else {
            throw PersistenceError.xcodeModelProblem(
                file: file, line: element.line, entity: entity, property: name,
                problem: xcodeType == "Undefined"
                    ? "the attribute has the type Undefined, which only a transient attribute may have"
                    : "the attribute type '\(xcodeType)' is not one Core Data defines",
                fix: "Choose a type in Xcode's model editor.")
        }
        let label = "'\(entity).\(name)'"
        var defaultValue = StoreValue.null
        if type == .date, let interval = element[attribute: "defaultDateTimeInterval"] {
            if let seconds = Double(interval) {
                defaultValue = .date(Date(timeIntervalSinceReferenceDate: seconds))
            } else {
                notes.append("The default date of \(label) ('\(interval)') is not a number of seconds; it is dropped.")
            }
        } else if let text = element[attribute: "defaultValueString"], ![.binary, .codable].contains(type) {
            if let value = Self.value(text, of: type) {
                defaultValue = value
            } else {
                notes.append("The default value of \(label) ('\(text)') is not a \(xcodeType); it is dropped.")
            }
        }
        var description = AttributeDescription(
            name: name, type: type, isOptional: element[attribute: "optional"] == "YES", defaultValue: defaultValue,
            isIndexed: element[attribute: "indexed"] == "YES",
            renamingIdentifier: element[attribute: "elementID"].flatMap { $0.isEmpty ? nil : $0 })
        description.validation = validation(element, type: type, label: label)
        return XcodeModel.Attribute(
            description: description, xcodeType: xcodeType, isTransient: isTransient,
            usesScalarValueType: element[attribute: "usesScalarValueType"].map { $0 == "YES" },
            valueTransformerName: element[attribute: "valueTransformerName"].flatMap { $0.isEmpty ? nil : $0 },
            customClassName: customClassName,
            allowsExternalBinaryDataStorage: element[attribute: "allowsExternalBinaryDataStorage"] == "YES",
            userInfo: element.firstChild(named: "userInfo").map(Self.userInfo) ?? [:])
    }

    /// The attribute type for an Xcode type name; `nil` for an unknown name, and for Undefined on
    /// a stored attribute.
    ///
    /// A Transformable attribute whose custom class is a Swift array or dictionary of plain values
    /// (`[String]`, `[String: Int]`) is `codable` (stored as JSON); any other Transformable keeps
    /// its archived bytes as `binary`.
    static func attributeType(_ name: String, customClassName: String?, isTransient: Bool) -> AttributeType? {
        switch name {
        case "Integer 16": return .integer16
        case "Integer 32": return .integer32
        case "Integer 64": return .integer64
        case "Decimal": return .decimal
        case "Double": return .double
        case "Float": return .float
        case "String": return .string
        case "Boolean": return .boolean
        case "Date": return .date
        case "Binary": return .binary
        case "UUID": return .uuid
        case "URI": return .uri
        case "ObjectID", "Object ID": return .uri
        case "Transformable": return codableSwiftType(customClassName) != nil ? .codable : .binary
        case "Undefined": return isTransient ? .binary : nil
        default: return nil
        }
    }

    /// The Swift spelling of a Transformable's custom class when it is a collection of plain
    /// `Codable` values (`[String]`, `Array<Int>`, `[String: Double]`), else `nil`.
    static func codableSwiftType(_ customClassName: String?) -> String? {
        guard var text = customClassName?.replacingOccurrences(of: " ", with: "") else { return nil }
        let plain: Set<String> = [
            "String", "Int", "Int16", "Int32", "Int64", "Double", "Float", "Bool", "Date", "Data", "UUID", "URL",
            "Decimal",
        ]
        if text.hasPrefix("Array<"), text.hasSuffix(">") { text = "[" + text.dropFirst(6).dropLast() + "]" }
        if text.hasPrefix("Set<"), text.hasSuffix(">") { return nil }
        guard text.hasPrefix("["), text.hasSuffix("]") else { return nil }
        let inner = text.dropFirst().dropLast()
        let parts = inner.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        switch parts.count {
        case 1 where plain.contains(parts[0]): return "[\(parts[0])]"
        case 2 where plain.contains(parts[0]) && plain.contains(parts[1]) && ["String", "Int"].contains(parts[0]):
            return "[\(parts[0]): \(parts[1])]"
        default: return nil
        }
    }

    /// `text` read as a value of `type`, as Xcode writes defaults and bounds; `nil` if it is not one.
    static func value(_ text: String, of type: AttributeType) -> StoreValue? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        switch type {
        case .integer16, .integer32, .integer64:
            if let number = Int64(trimmed) {
                return type.accepts(.int(number)) ? .int(number) : nil
            }
            guard let number = Double(trimmed), number.rounded() == number, let exact = Int64(exactly: number) else {
                return nil
            }
            return type.accepts(.int(exact)) ? .int(exact) : nil
        case .double: return Double(trimmed).map(StoreValue.double)
        case .float: return Float(trimmed).map(StoreValue.float)
        case .decimal:
            return Decimal(string: trimmed, locale: Locale(identifier: "en_US_POSIX")).map(StoreValue.decimal)
        case .boolean:
            switch trimmed.uppercased() {
            case "YES", "TRUE", "1": return .bool(true)
            case "NO", "FALSE", "0": return .bool(false)
            default: return Double(trimmed).map { .bool($0 != 0) }  // Xcode 4 wrote "0.0" for some
            }
        case .string: return .string(text)
        case .date: return Double(trimmed).map { .date(Date(timeIntervalSinceReferenceDate: $0)) }
        case .uuid: return UUID(uuidString: trimmed).map(StoreValue.uuid)
        case .uri: return URL(string: trimmed).map(StoreValue.url)
        case .binary, .codable: return nil
        }
    }

    /// The minimum/maximum (numbers, dates), length (strings, binary data) and pattern rules.
    private mutating func validation(_ element: MarkupElement, type: AttributeType, label: String)
        -> AttributeValidation
    {
        var rules = AttributeValidation()
        let minimumText = element[attribute: type == .date ? "minDateTimeInterval" : "minValueString"]
        let maximumText = element[attribute: type == .date ? "maxDateTimeInterval" : "maxValueString"]
        switch type {
        case .integer16, .integer32, .integer64, .float, .double, .decimal, .date:
            rules.minimum = minimumText.flatMap { Self.value($0, of: type) }
            rules.maximum = maximumText.flatMap { Self.value($0, of: type) }
            if (minimumText != nil && rules.minimum == nil) || (maximumText != nil && rules.maximum == nil) {
                notes.append("A minimum or maximum of \(label) is not a valid value; it is dropped.")
            }
            if let minimum = rules.minimum, let maximum = rules.maximum,
                StoreValue.compare(minimum, maximum) == .orderedDescending
            {
                notes.append("The minimum of \(label) is above its maximum; both are dropped.")
                rules.minimum = nil
                rules.maximum = nil
            }
        case .string, .binary:
            let lower = minimumText.flatMap { Int($0) }.map { max(0, $0) }
            let upper = maximumText.flatMap { Int($0) }
            if lower != nil || upper != nil {
                let low = lower ?? 0
                let high = upper ?? Int.max
                if low <= high {
                    rules.length = low...high
                } else {
                    notes.append("The minimum length of \(label) is above its maximum; both are dropped.")
                }
            }
        default:
            break
        }
        if let pattern = element[attribute: "regularExpressionString"], !pattern.isEmpty {
            if type == .string, (try? NSRegularExpression(pattern: pattern)) != nil {
                rules.pattern = pattern
            } else {
                notes.append("The regular expression of \(label) is not a valid pattern for a string; it is dropped.")
            }
        }
        return rules
    }
}
