import Foundation
import ObjectGraph
import ObjectGraphTesting
import Testing

/// Fixture documents that are not JSON at all (found by the FuzzFixture target: the empty input):
/// a `Fixture.Problem` that says so, never Foundation's untyped error.
@Suite struct FixtureInputTests {
    @Test(arguments: ["", "{", "{\"Fruit\": [", "\u{FF}", "[1, 2"])
    func malformedJSONIsAFixtureProblem(text: String) throws {
        let problem = #expect(throws: Fixture.Problem.self) { try Fixture(data: Data(text.utf8)) }
        #expect(problem?.description.hasPrefix("A fixture must be JSON; this is not") == true)
        #expect((problem?.description.count ?? .max) < 400)
    }

    @Test func jsonThatIsNotAnObjectIsAFixtureProblem() throws {
        let problem = #expect(throws: Fixture.Problem.self) { try Fixture(data: Data("[1, 2]".utf8)) }
        #expect(problem?.description == "A fixture is a JSON object mapping entity names to arrays of objects.")
    }
}
