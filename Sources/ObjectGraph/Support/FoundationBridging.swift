import Foundation

/// Foundation's bridged objects as the Swift values they stand for.
enum FoundationBridging {
    /// The Swift value a Foundation object bridges to, so that values ported from Core Data code
    /// (`date as NSDate`, `NSNumber(value: 3)`, `NSSet(array: objects)`) mean what their Swift
    /// counterparts mean. Other values come back unchanged.
    ///
    /// | Foundation          | Swift                                                             |
    /// |---------------------|-------------------------------------------------------------------|
    /// | `NSDecimalNumber`   | `Decimal`                                                         |
    /// | `NSNumber`          | `Bool` if made from a `Bool` (`kCFBooleanTrue`/`False`), `Double` |
    /// |                     | for `float`/`double` storage, else `Int64` (`UInt64` above        |
    /// |                     | `Int64.max`)                                                      |
    /// | `NSString`          | `String`                                                          |
    /// | `NSDate`, `NSUUID`, `NSURL`, `NSData` | `Date`, `UUID`, `URL`, `Data`                   |
    /// | `NSArray`, `NSOrderedSet` | `[Any]`                                                     |
    /// | `NSSet`             | `Set<AnyHashable>`                                                |
    ///
    /// An `AnyHashable` (an element of a bridged set) is unwrapped to its base. `NSNull` is left to
    /// the callers, which read it as `nil`.
    static func unbridgedFoundationValue(_ value: Any) -> Any {
        if type(of: value) == AnyHashable.self, let hashable = value as? AnyHashable {
            return unbridgedFoundationValue(hashable.base)
        }
        // Only real Foundation objects: a Swift value in an `Any` would bridge to one on Apple platforms.
        guard type(of: value) is NSObject.Type else { return value }
        switch value {
        case let number as NSDecimalNumber: return number.decimalValue
        case let number as NSNumber: return swiftNumber(number)
        case let string as NSString: return String(describing: string)
        case let ordered as NSOrderedSet: return ordered.array
        case let set as NSSet: return set as? Set<AnyHashable> ?? Set(set.allObjects.compactMap { $0 as? AnyHashable })
        case let array as NSArray: return array as? [Any] ?? value
        case let date as NSDate: return Date(timeIntervalSinceReferenceDate: date.timeIntervalSinceReferenceDate)
        case let uuid as NSUUID: return UUID(uuidString: uuid.uuidString) ?? value
        case let url as NSURL: return url.absoluteURL ?? value
        case let data as NSData: return Data(referencing: data)
        default: return value
        }
    }

    /// The Swift number an `NSNumber` holds: `Bool` for Foundation's boolean numbers, `Double` for
    /// floating-point storage, otherwise an integer.
    static func swiftNumber(_ number: NSNumber) -> Any {
        if isBooleanNumber(number) { return number.boolValue }
        switch number.objCType.pointee {
        case CChar(UInt8(ascii: "f")), CChar(UInt8(ascii: "d")): return number.doubleValue
        case CChar(UInt8(ascii: "Q")), CChar(UInt8(ascii: "L")):
            let unsigned = number.uint64Value
            return Int64(exactly: unsigned).map { $0 as Any } ?? unsigned
        default: return number.int64Value
        }
    }

    /// Whether `number` is one of Foundation's two boolean numbers (what `NSNumber(value: true)` and
    /// `true as NSNumber` make); an `NSNumber(value: Int8(1))` is not, though both store a `char`.
    static func isBooleanNumber(_ number: NSNumber) -> Bool {
        type(of: number) == type(of: NSNumber(value: true))
    }

    /// `value` with nested optionals unwrapped and Foundation's bridged objects converted
    /// (``unbridgedFoundationValue(_:)``); `nil` for any level of `nil` or `NSNull`. With
    /// `keepingNumbers`, an `NSNumber` stays one, for callers that give it a type of their own.
    static func unwrapped(_ value: Any?, keepingNumbers: Bool) -> Any? {
        guard let value else { return nil }
        if value is NSNull { return nil }
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .optional else {
            return keepingNumbers && value is NSNumber ? value : unbridgedFoundationValue(value)
        }
        return unwrapped(mirror.children.first?.value, keepingNumbers: keepingNumbers)
    }
}
