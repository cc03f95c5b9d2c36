import Testing

@testable import ObjectGraph

/// The comparison that `PreparedString`'s shortcuts must agree with: Swift's Character
/// comparison of the value and the constant.
enum PreparedStringAgreement {
    static let operations: [PreparedString.Operation] = [.equal, .prefix, .suffix, .substring]

    static func reference(_ subject: String, _ constant: String, _ operation: PreparedString.Operation) -> Bool {
        switch operation {
        case .equal: subject == constant
        case .prefix: subject.hasPrefix(constant)
        case .suffix: subject.hasSuffix(constant)
        case .substring: constant.isEmpty || subject.contains(constant)
        }
    }

    /// For each subject, constant and operation: expects `PreparedString` (plain and folded) to
    /// answer as ``reference(_:_:_:)``, and passes the case and that answer to `shortcut`, which
    /// checks one shortcut where it decides.
    static func check(
        subjects: [String], constants: [String],
        shortcut: (_ subject: String, _ constant: String, PreparedString.Operation, _ expected: Bool) -> Void
    ) {
        for subject in subjects {
            for constant in constants {
                let prepared = PreparedString(constant, options: [])
                for operation in operations {
                    let expected = reference(subject, constant, operation)
                    shortcut(subject, constant, operation, expected)
                    let label = "\(subject.debugDescription) \(operation) \(constant.debugDescription)"
                    #expect(prepared.matches(folded: subject, operation) == expected, "\(label)")
                    #expect(prepared.matches(subject, operation) == expected, "\(label)")
                }
            }
        }
    }
}
