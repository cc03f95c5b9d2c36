import Foundation

/// A small XML reader for the documents ObjectGraph imports (Xcode model `contents` files and
/// property lists), with no dependency on libxml2.
///
/// It reads UTF-8 XML 1.0 into a tree of ``MarkupElement``s: elements, attributes, the five
/// predefined entities and character references, comments, CDATA sections and processing
/// instructions; a DOCTYPE is skipped (its internal subset is not applied, so documents may use
/// only the predefined entities). Every problem is a `PersistenceError` with code `invalidModel`
/// naming the line, and the work is bounded: nesting depth, element count and input size have
/// limits, so hostile input costs time linear in its size and never traps.
struct MarkupReader {
    /// The bounds a document must stay within.
    struct Limits: Sendable {
        var maximumBytes = 64 << 20
        var maximumDepth = 256
        var maximumElements = 2_000_000
        var maximumAttributes = 1_024
    }

    private let bytes: [UInt8]
    private let file: URL?
    private let limits: Limits
    private var index = 0
    private var line = 1
    private var elementCount = 0

    private init(bytes: [UInt8], file: URL?, limits: Limits) {
        self.bytes = bytes
        self.file = file
        self.limits = limits
    }

    /// Reads `bytes` as one XML document and returns its root element.
    ///
    /// - Throws: `PersistenceError.Code.invalidModel` for malformed XML, naming `file` and the line.
    static func parse(_ bytes: [UInt8], file: URL? = nil, limits: Limits = Limits()) throws -> MarkupElement {
        var reader = MarkupReader(bytes: bytes, file: file, limits: limits)
        return try reader.document()
    }

    // MARK: - Document

    private mutating func document() throws -> MarkupElement {
        guard bytes.count <= limits.maximumBytes else {
            throw failure("the document is \(bytes.count) bytes, above the limit of \(limits.maximumBytes)")
        }
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            index = 3
        } else if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
            throw failure("the document is UTF-16; save it as UTF-8")
        }
        var root: MarkupElement?
        while true {
            skipWhitespace()
            guard index < bytes.count else { break }
            if starts(with: "<?") {
                try processingInstruction()
            } else if starts(with: "<!--") {
                try comment()
            } else if starts(with: "<!DOCTYPE") {
                guard root == nil else { throw failure("a DOCTYPE follows the root element") }
                try doctype()
            } else if bytes[index] == UInt8(ascii: "<") {
                guard root == nil else { throw failure("a second root element starts here; a document has one") }
                root = try element()
            } else {
                throw failure("text appears outside the root element")
            }
        }
        guard let root else { throw failure("the document has no root element") }
        return root
    }

    // MARK: - Elements

    /// One element, from its `<` to the end of its end tag. Nesting is kept on an explicit stack.
    private mutating func element() throws -> MarkupElement {
        var stack: [(element: MarkupElement, text: [UInt8])] = []
        var (first, isEmpty) = try startTag()
        if isEmpty { return first }
        stack.append((first, []))
        while let top = stack.last {
            guard index < bytes.count else {
                throw failure("the document ends inside element '\(top.element.name)' (from line \(top.element.line))")
            }
            let byte = bytes[index]
            if byte == UInt8(ascii: "<") {
                if starts(with: "</") {
                    let name = try endTag()
                    var done = stack.removeLast()
                    guard name == done.element.name else {
                        throw failure(
                            "the end tag '</\(name)>' does not match the open element '\(done.element.name)' "
                                + "(from line \(done.element.line))")
                    }
                    done.element.text = try string(done.text, what: "text")
                    if stack.isEmpty { return done.element }
                    stack[stack.count - 1].element.children.append(done.element)
                } else if starts(with: "<!--") {
                    try comment()
                } else if starts(with: "<![CDATA[") {
                    let content = try cdata()
                    stack[stack.count - 1].text.append(contentsOf: content)
                } else if starts(with: "<?") {
                    try processingInstruction()
                } else if starts(with: "<!") {
                    throw failure("a declaration ('<!') appears inside an element")
                } else {
                    guard stack.count < limits.maximumDepth else {
                        throw failure("elements nest deeper than \(limits.maximumDepth) levels")
                    }
                    (first, isEmpty) = try startTag()
                    if isEmpty {
                        stack[stack.count - 1].element.children.append(first)
                    } else {
                        stack.append((first, []))
                    }
                }
            } else if byte == UInt8(ascii: "&") {
                let decoded = try reference()
                stack[stack.count - 1].text.append(contentsOf: decoded)
            } else {
                let start = index
                while index < bytes.count, bytes[index] != UInt8(ascii: "<"), bytes[index] != UInt8(ascii: "&") {
                    if bytes[index] == 0x0A { line += 1 }
                    index += 1
                }
                stack[stack.count - 1].text.append(contentsOf: bytes[start..<index])
            }
        }
        throw failure("the element stack emptied unexpectedly")
    }

    /// A start tag `<name a="v" …>` or `<name … />`; returns the element and whether it was empty.
    private mutating func startTag() throws -> (MarkupElement, Bool) {
        let startLine = line
        index += 1  // <
        let name = try self.name(what: "element name")
        elementCount += 1
        guard elementCount <= limits.maximumElements else {
            throw failure("the document has more than \(limits.maximumElements) elements")
        }
        var element = MarkupElement(name: name, line: startLine)
        while true {
            let hadSpace = skipWhitespace()
            guard index < bytes.count else { throw failure("the document ends inside the start tag of '\(name)'") }
            if bytes[index] == UInt8(ascii: ">") {
                index += 1
                return (element, false)
            }
            if starts(with: "/>") {
                index += 2
                return (element, true)
            }
            guard hadSpace else { throw failure("the start tag of '\(name)' needs a space before its next attribute") }
            let attributeName = try self.name(what: "attribute name")
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "=") else {
                throw failure("attribute '\(attributeName)' of '\(name)' has no '=' and value")
            }
            index += 1
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") else {
                throw failure("the value of attribute '\(attributeName)' of '\(name)' is not in quotes")
            }
            let value = try attributeValue(quote: bytes[index])
            guard element.attributes.allSatisfy({ $0.name != attributeName }) else {
                throw failure("element '\(name)' has attribute '\(attributeName)' twice")
            }
            guard element.attributes.count < limits.maximumAttributes else {
                throw failure("element '\(name)' has more than \(limits.maximumAttributes) attributes")
            }
            element.attributes.append((attributeName, value))
        }
    }

    private mutating func attributeValue(quote: UInt8) throws -> String {
        let startLine = line
        index += 1
        var value: [UInt8] = []
        while true {
            guard index < bytes.count else {
                throw failure("the document ends inside an attribute value that starts on line \(startLine)")
            }
            let byte = bytes[index]
            switch byte {
            case quote:
                index += 1
                return try string(value, what: "attribute value")
            case UInt8(ascii: "<"):
                throw failure("an attribute value contains '<'; write it as '&lt;'")
            case UInt8(ascii: "&"):
                value.append(contentsOf: try reference())
            case 0x0A, 0x09, 0x0D:
                if byte == 0x0A { line += 1 }
                value.append(UInt8(ascii: " "))  // attribute-value normalization
                index += 1
            default:
                value.append(byte)
                index += 1
            }
        }
    }

    /// An end tag `</name>`; returns the name.
    private mutating func endTag() throws -> String {
        index += 2
        let name = try self.name(what: "end tag name")
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: ">") else {
            throw failure("the end tag '</\(name)' is not closed with '>'")
        }
        index += 1
        return name
    }

    private mutating func name(what: String) throws -> String {
        let start = index
        while index < bytes.count {
            let byte = bytes[index]
            if Self.isWhitespace(byte) || byte == UInt8(ascii: "/") || byte == UInt8(ascii: ">")
                || byte == UInt8(ascii: "=") || byte == UInt8(ascii: "<") || byte == UInt8(ascii: "\"")
                || byte == UInt8(ascii: "'")
            {
                break
            }
            index += 1
        }
        guard index > start else { throw failure("an \(what) is missing") }
        let first = bytes[start]
        guard !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first), first != UInt8(ascii: "-"),
            first != UInt8(ascii: ".")
        else {
            throw failure("an \(what) starts with '\(Character(Unicode.Scalar(first)))'")
        }
        return try string(Array(bytes[start..<index]), what: what)
    }

    // MARK: - References, comments, CDATA, instructions

    /// `&name;` or `&#N;` / `&#xH;`, as UTF-8 bytes.
    private mutating func reference() throws -> [UInt8] {
        let start = index
        index += 1
        while index < bytes.count, bytes[index] != UInt8(ascii: ";"), index - start < 12 {
            index += 1
        }
        guard index < bytes.count, bytes[index] == UInt8(ascii: ";") else {
            throw failure("an '&' does not start an entity reference ending in ';'; write a literal '&' as '&amp;'")
        }
        let body = String(decoding: bytes[(start + 1)..<index], as: UTF8.self)
        index += 1
        switch body {
        case "lt": return [UInt8(ascii: "<")]
        case "gt": return [UInt8(ascii: ">")]
        case "amp": return [UInt8(ascii: "&")]
        case "quot": return [UInt8(ascii: "\"")]
        case "apos": return [UInt8(ascii: "'")]
        default: break
        }
        guard body.hasPrefix("#") else {
            throw failure("the entity '&\(body);' is not one of XML's five (lt, gt, amp, quot, apos)")
        }
        let digits = body.dropFirst()
        let number =
            digits.hasPrefix("x") ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
        guard let number, let scalar = Unicode.Scalar(number), number != 0 else {
            throw failure("the character reference '&\(body);' names no character")
        }
        return Array(String(Character(scalar)).utf8)
    }

    private mutating func comment() throws {
        index += 4
        try skip(past: "-->", what: "a comment")
    }

    private mutating func processingInstruction() throws {
        let start = index
        index += 2
        try skip(past: "?>", what: "a processing instruction")
        // XML has no NUL character, and Foundation's search below may trap on one.
        guard !bytes[start..<index].contains(0) else {
            throw failure("a processing instruction holds a NUL character; the file is not XML text")
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if text.hasPrefix("<?xml "), let range = text.range(of: "encoding=") {
            let declared = text[range.upperBound...].dropFirst().prefix { $0 != "\"" && $0 != "'" }.lowercased()
            guard declared == "utf-8" || declared == "utf8" || declared == "us-ascii" else {
                throw failure("the document declares the encoding '\(declared)'; save it as UTF-8")
            }
        }
    }

    private mutating func cdata() throws -> ArraySlice<UInt8> {
        index += 9
        let start = index
        try skip(past: "]]>", what: "a CDATA section")
        return bytes[start..<(index - 3)]
    }

    /// `<!DOCTYPE …>`, with an internal subset in brackets and quoted strings skipped whole.
    private mutating func doctype() throws {
        let startLine = line
        index += 9
        var depth = 0
        var quote: UInt8?
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if byte == 0x0A { line += 1 }
            if let open = quote {
                if byte == open { quote = nil }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "'"): quote = byte
            case UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "]"): depth -= 1
            case UInt8(ascii: ">") where depth <= 0: return
            default: break
            }
        }
        throw failure("the DOCTYPE that starts on line \(startLine) is not closed")
    }

    /// Moves past the next `terminator`, counting lines.
    private mutating func skip(past terminator: String, what: String) throws {
        let startLine = line
        let pattern = Array(terminator.utf8)
        while index < bytes.count {
            if bytes[index] == pattern[0], starts(with: pattern) {
                index += pattern.count
                return
            }
            if bytes[index] == 0x0A { line += 1 }
            index += 1
        }
        throw failure("\(what) that starts on line \(startLine) is not closed with '\(terminator)'")
    }

    // MARK: - Helpers

    @discardableResult
    private mutating func skipWhitespace() -> Bool {
        let start = index
        while index < bytes.count, Self.isWhitespace(bytes[index]) {
            if bytes[index] == 0x0A { line += 1 }
            index += 1
        }
        return index > start
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D
    }

    private func starts(with text: String) -> Bool { starts(with: Array(text.utf8)) }

    private func starts(with pattern: [UInt8]) -> Bool {
        guard index + pattern.count <= bytes.count else { return false }
        for offset in 0..<pattern.count where bytes[index + offset] != pattern[offset] { return false }
        return true
    }

    private func string<Bytes: Collection<UInt8>>(_ bytes: Bytes, what: String) throws -> String {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw failure("a \(what) is not valid UTF-8")
        }
        return text
    }

    private func failure(_ problem: String) -> PersistenceError {
        .malformedMarkup(file: file, line: line, problem: problem)
    }
}
