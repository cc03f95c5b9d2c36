import Foundation

extension AttributeType {
    /// The type's zero: what Core Data's scalar accessors read for `nil` (`0`, `NO`), extended
    /// to strings (empty), data (empty) and dates (the reference date); `nil` for the types
    /// without one (UUID, URI, codable).
    var zeroValue: StoreValue? {
        switch self {
        case .boolean: .bool(false)
        case .integer16, .integer32, .integer64: .int(0)
        case .float: .float(0)
        case .double: .double(0)
        case .decimal: .decimal(0)
        case .string: .string("")
        case .binary: .data(Data())
        case .date: .date(Date(timeIntervalSinceReferenceDate: 0))
        case .uuid, .uri, .codable: nil
        }
    }
}
