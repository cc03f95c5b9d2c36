import Foundation

/// Case and diacritic folding for `[c]`, `[d]` and `[cd]`, with an allocation-free path for
/// ASCII strings.
enum PredicateFolding {
    /// `text` folded as `options` ask (Unicode case folding and diacritic removal).
    static func fold(_ text: String, _ options: PredicateExpression.Options) -> String {
        guard !options.isEmpty else { return text }
        // For ASCII, case folding is lower-casing and there are no diacritics to remove.
        if isASCII(text) { return options.contains(.caseInsensitive) ? text.lowercased() : text }
        var foundation: String.CompareOptions = []
        if options.contains(.caseInsensitive) { foundation.insert(.caseInsensitive) }
        if options.contains(.diacriticInsensitive) { foundation.insert(.diacriticInsensitive) }
        return text.folding(options: foundation, locale: nil)
    }

    /// Whether `text` is entirely ASCII.
    static func isASCII(_ text: String) -> Bool {
        text.utf8.allSatisfy { $0 < 0x80 }
    }
}

/// A string constant prepared once per fetch: folded as its comparison asks.
struct PreparedString {
    /// The folded constant.
    let folded: String
    /// Its UTF-8 bytes when it is ASCII (folding then lower-cases ASCII letters), else `nil`.
    let ascii: [UInt8]?
    let options: PredicateExpression.Options

    init(_ text: String, options: PredicateExpression.Options) {
        let folded = PredicateFolding.fold(text, options)
        self.folded = folded
        self.ascii = PredicateFolding.isASCII(folded) ? Array(folded.utf8) : nil
        self.options = options
    }

    /// `value` folded the same way (allocates only when options are set and `value` is not
    /// small enough to be stored inline).
    func fold(_ value: String) -> String { PredicateFolding.fold(value, options) }

    /// String operators that compare against this constant.
    enum Operation {
        case equal, prefix, suffix, substring
    }

    /// Whether `value` relates to the constant as `operation` says, after folding.
    func matches(_ value: String, _ operation: Operation) -> Bool {
        if let ascii,
            let result = Self.asciiMatch(value, ascii, operation, lowercasing: options.contains(.caseInsensitive))
        {
            return result
        }
        let subject = fold(value)
        switch operation {
        case .equal: return subject == folded
        case .prefix: return subject.hasPrefix(folded)
        case .suffix: return subject.hasSuffix(folded)
        case .substring: return folded.isEmpty || subject.contains(folded)
        }
    }

    /// Byte comparison when `value` is ASCII too; `nil` when it is not (or not contiguous).
    /// For ASCII, case folding is lower-casing and diacritic folding changes nothing.
    private static func asciiMatch(
        _ value: String, _ constant: [UInt8], _ operation: Operation, lowercasing: Bool
    ) -> Bool? {
        let result = value.utf8.withContiguousStorageIfAvailable { bytes -> Bool? in
            var index = 0
            while index < bytes.count {
                if bytes[index] >= 0x80 { return nil }
                index += 1
            }
            if bytes.count < constant.count { return false }
            switch operation {
            case .equal:
                return bytes.count == constant.count && equal(bytes, from: 0, constant, lowercasing)
            case .prefix: return equal(bytes, from: 0, constant, lowercasing)
            case .suffix: return equal(bytes, from: bytes.count - constant.count, constant, lowercasing)
            case .substring:
                var start = 0
                while start + constant.count <= bytes.count {
                    if equal(bytes, from: start, constant, lowercasing) { return true }
                    start += 1
                }
                return false
            }
        }
        return result ?? nil
    }

    @inline(__always)
    private static func equal(
        _ bytes: UnsafeBufferPointer<UInt8>, from start: Int, _ constant: [UInt8], _ lowercasing: Bool
    ) -> Bool {
        for offset in 0..<constant.count {
            var byte = bytes[start + offset]
            if lowercasing, byte >= 0x41, byte <= 0x5A { byte |= 0x20 }
            if byte != constant[offset] { return false }
        }
        return true
    }
}

/// A `LIKE` pattern: `*` matches any run of characters, `?` exactly one; `\` escapes either.
/// Matching is over whole strings, by `Character`.
struct LikePattern {
    enum Element: Equatable {
        case character(Character)
        case any
        case anyRun
    }

    let elements: [Element]
    let options: PredicateExpression.Options

    init(_ pattern: String, options: PredicateExpression.Options) {
        var elements: [Element] = []
        var escaped = false
        for character in PredicateFolding.fold(pattern, options) {
            if escaped {
                elements.append(.character(character))
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "*" {
                if elements.last != .anyRun { elements.append(.anyRun) }
            } else if character == "?" {
                elements.append(.any)
            } else {
                elements.append(.character(character))
            }
        }
        if escaped { elements.append(.character("\\")) }
        self.elements = elements
        self.options = options
    }

    func matches(_ value: String) -> Bool {
        let subject = PredicateFolding.fold(value, options)
        var position = subject.startIndex
        var element = 0
        var starElement = -1
        var starPosition = subject.startIndex
        while position < subject.endIndex {
            if element < elements.count {
                switch elements[element] {
                case .anyRun:
                    starElement = element
                    starPosition = position
                    element += 1
                    continue
                case .any:
                    element += 1
                    position = subject.index(after: position)
                    continue
                case .character(let character) where character == subject[position]:
                    element += 1
                    position = subject.index(after: position)
                    continue
                default: break
                }
            }
            guard starElement >= 0 else { return false }
            element = starElement + 1
            starPosition = subject.index(after: starPosition)
            position = starPosition
        }
        while element < elements.count, elements[element] == .anyRun { element += 1 }
        return element == elements.count
    }
}

/// `MATCHES`: a regular expression that must match the whole string, as `NSPredicate` does.
struct PredicateRegex {
    let expression: NSRegularExpression
    let options: PredicateExpression.Options

    /// Compiles `pattern`; `[c]` makes it case-insensitive, `[d]` folds diacritics in both the
    /// pattern and the subject.
    init(_ pattern: String, options: PredicateExpression.Options) throws {
        var regexOptions: NSRegularExpression.Options = []
        if options.contains(.caseInsensitive) { regexOptions.insert(.caseInsensitive) }
        let source =
            options.contains(.diacriticInsensitive) ? PredicateFolding.fold(pattern, [.diacriticInsensitive]) : pattern
        // The pattern must be valid on its own: wrapped, "a)(b" would become valid.
        _ = try NSRegularExpression(pattern: source, options: regexOptions)
        self.expression = try NSRegularExpression(pattern: "\\A(?:\(source))\\z", options: regexOptions)
        self.options = options
    }

    static func isValid(_ pattern: String) -> Bool {
        (try? PredicateRegex(pattern, options: [])) != nil
    }

    func matches(_ value: String) -> Bool {
        let subject =
            options.contains(.diacriticInsensitive) ? PredicateFolding.fold(value, [.diacriticInsensitive]) : value
        let range = NSRange(location: 0, length: subject.utf16.count)
        return expression.firstMatch(in: subject, options: [], range: range) != nil
    }
}
