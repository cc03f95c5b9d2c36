/// One element of an XML document read by ``MarkupReader``: its name, attributes in document
/// order, child elements, the text directly inside it, and the line its start tag is on.
struct MarkupElement: Sendable, Hashable {
    /// The element's name, with any namespace prefix (`plist`, `xs:element`).
    var name: String
    /// The attributes as written, in document order, with entity and character references resolved.
    var attributes: [(name: String, value: String)]
    /// The child elements, in document order.
    var children: [MarkupElement]
    /// The element's own text and CDATA, concatenated (not its children's).
    var text: String
    /// The 1-based line of the element's start tag.
    var line: Int

    init(
        name: String, attributes: [(name: String, value: String)] = [], children: [MarkupElement] = [],
        text: String = "", line: Int = 1
    ) {
        self.name = name
        self.attributes = attributes
        self.children = children
        self.text = text
        self.line = line
    }

    /// The value of the attribute `name`, if the element has it.
    subscript(attribute name: String) -> String? {
        for attribute in attributes where attribute.name == name { return attribute.value }
        return nil
    }

    /// The child elements named `name`, in order.
    func children(named name: String) -> [MarkupElement] { children.filter { $0.name == name } }

    /// The first child element named `name`.
    func firstChild(named name: String) -> MarkupElement? { children.first { $0.name == name } }

    static func == (lhs: MarkupElement, rhs: MarkupElement) -> Bool {
        lhs.name == rhs.name && lhs.text == rhs.text && lhs.line == rhs.line && lhs.children == rhs.children
            && lhs.attributes.map(\.name) == rhs.attributes.map(\.name)
            && lhs.attributes.map(\.value) == rhs.attributes.map(\.value)
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(line)
        hasher.combine(children)
    }
}
