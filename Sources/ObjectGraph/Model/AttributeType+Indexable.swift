extension AttributeType {
    /// Whether an index can order values of this type.
    var isIndexable: Bool {
        switch self {
        case .integer16, .integer32, .integer64, .boolean, .float, .double, .date, .decimal, .string, .uuid: true
        default: false
        }
    }
}
