import Foundation

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
        matches(folded: PredicateFolding.fold(value, options))
    }

    /// Whether `subject`, a value already folded as the pattern's options ask, matches.
    func matches(folded subject: String) -> Bool {
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
