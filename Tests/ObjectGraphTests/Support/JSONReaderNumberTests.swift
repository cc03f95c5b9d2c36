import Foundation
import Testing

@testable import ObjectGraph

/// `JSONReader.readDouble()` computes short numbers itself (`exactDouble`) and leaves the rest
/// to the full parser: both must give the same double, bit for bit.
@Suite struct JSONReaderNumberTests {
    private func read(_ text: String) throws -> Double {
        var reader = JSONReader(bytes: Array(text.utf8), url: URL(fileURLWithPath: "/tmp/numbers.json"))
        return try reader.readDouble()
    }

    @Test func shortNumbersReadAsTheFullParserReadsThem() throws {
        let tokens = [
            "0", "-0", "0.0", "-0.0", "1", "12.5", "0.1", "0.3", "-3e-4", "1E22", "1e-22", "123456789012345",
            "1234567890123456", "0.000000000000000000001", "786123456.123", "9007199254740993", "1e23", "2.5E+3",
            "100000000000000000000000", "4.35", "17.7", "99.99", "0.30000000000000004", "1.7976931348623157e308",
            "5e-324", "1.0e0", "-12345.678901234",
        ]
        for token in tokens {
            let expected = try #require(Double(token), "\(token)")
            #expect(try read(token).bitPattern == expected.bitPattern, "\(token)")
        }
    }

    @Test func randomShortDecimalsAgreeWithTheFullParser() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            let digits = Int.random(in: 0...16, using: &generator)
            let mantissa =
                String(Int.random(in: 1...9, using: &generator))
                + String((0..<digits).map { _ in Character(String(Int.random(in: 0...9, using: &generator))) })
            let point = Int.random(in: 0...mantissa.count, using: &generator)
            var token =
                point < mantissa.count && point > 0
                ? "\(mantissa.prefix(point)).\(mantissa.dropFirst(point))" : mantissa
            if Bool.random(using: &generator) { token += "e\(Int.random(in: -30...30, using: &generator))" }
            if Bool.random(using: &generator) { token = "-" + token }
            let expected = try #require(Double(token), "\(token)")
            #expect(try read(token).bitPattern == expected.bitPattern, "\(token)")
        }
    }

    @Test func malformedNumbersAreStillRefused() {
        for token in ["-", "1e", "1e+", "--1", "1.2.3", "1e400"] {
            let error = #expect(throws: PersistenceError.self, "\(token)") { try read(token) }
            #expect(error?.code == .corruptStore, "\(token)")
        }
    }
}
