extension JSONReader {
    /// Powers of ten a `Double` holds exactly.
    private static let exactPowersOfTen: [Double] = (0...22).map { exponent in
        (0..<exponent).reduce(1.0) { value, _ in value * 10 }
    }

    /// 10^`exponent` (0...22), exactly.
    static func exactPowerOfTen(_ exponent: Int) -> Double { exactPowersOfTen[exponent] }

    /// The number a JSON number token spells, when it can be computed exactly without a
    /// general parser; `nil` otherwise (the caller parses it in full).
    ///
    /// A token of at most 15 significant decimal digits with a power of ten of at most 22 either
    /// way (as `12.5`, `786000000.25` or `-3e-4` are, and as most stored numbers are) is one
    /// exactly representable integer multiplied or divided by one exactly representable power of
    /// ten: IEEE arithmetic rounds that single operation correctly, so the result is the double
    /// nearest the token, as a full parser gives (Clinger's fast path).
    static func exactDouble<Token: RandomAccessCollection<UInt8>>(_ token: Token) -> Double? where Token.Index == Int {
        var index = token.startIndex
        let end = token.endIndex
        var negative = false
        if index < end, token[index] == UInt8(ascii: "-") {
            negative = true
            index += 1
        }
        var mantissa: UInt64 = 0
        var digits = 0
        var exponent = 0
        var sawDigit = false
        while index < end, token[index] >= 0x30, token[index] <= 0x39 {
            if mantissa != 0 || token[index] != 0x30 { digits += 1 }
            mantissa = mantissa &* 10 &+ UInt64(token[index] - 0x30)
            sawDigit = true
            index += 1
        }
        guard sawDigit else { return nil }
        if index < end, token[index] == UInt8(ascii: ".") {
            index += 1
            var fractionDigits = 0
            while index < end, token[index] >= 0x30, token[index] <= 0x39 {
                if mantissa != 0 || token[index] != 0x30 { digits += 1 }
                mantissa = mantissa &* 10 &+ UInt64(token[index] - 0x30)
                fractionDigits += 1
                exponent -= 1
                index += 1
            }
            guard fractionDigits > 0 else { return nil }
        }
        if index < end, token[index] == UInt8(ascii: "e") || token[index] == UInt8(ascii: "E") {
            index += 1
            var negativeExponent = false
            if index < end, token[index] == UInt8(ascii: "+") || token[index] == UInt8(ascii: "-") {
                negativeExponent = token[index] == UInt8(ascii: "-")
                index += 1
            }
            var written = 0
            var exponentDigits = 0
            while index < end, token[index] >= 0x30, token[index] <= 0x39 {
                guard written < 1_000 else { return nil }
                written = written * 10 + Int(token[index] - 0x30)
                exponentDigits += 1
                index += 1
            }
            guard exponentDigits > 0 else { return nil }
            exponent += negativeExponent ? -written : written
        }
        guard index == end, digits <= 15 else { return nil }
        var value = Double(mantissa)
        if mantissa != 0 {
            guard exponent >= -22, exponent <= 22 else { return nil }
            value = exponent < 0 ? value / exactPowersOfTen[-exponent] : value * exactPowersOfTen[exponent]
        }
        return negative ? -value : value
    }
}
