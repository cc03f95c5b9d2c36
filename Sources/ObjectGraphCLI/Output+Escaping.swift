extension Output {
    /// `text` safe to write to a terminal: control characters (C0, DEL, C1, which start escape
    /// sequences: colours, cursor moves, hidden links), line and paragraph separators and
    /// bidirectional overrides are written as `\u001b`-style escapes, as `dump` writes them in
    /// its JSON. Names and messages from a store file are data, and must not forge lines or
    /// rewrite the screen.
    ///
    /// - Complexity: O(*n*); text with nothing to escape is returned as it is after one pass
    ///   over its bytes.
    static func escaped(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 < 0x20 || $0 >= 0x7F }) else { return text }
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            if needsEscape(scalar) {
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x200E, 0x200F, 0x2028...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}
