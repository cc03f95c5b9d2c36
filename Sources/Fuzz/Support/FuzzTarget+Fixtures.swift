import Foundation
import ObjectGraph
import ObjectGraphTesting

extension FuzzTarget {
    /// The codes inserting and saving a fixture may be refused with.
    static let fixtureCodes: Set<PersistenceError.Code> = [
        .unknownKey, .typeMismatch, .validation, .outOfRange, .invalidFetchRequest,
    ]

    /// The bytes as a test fixture (the testing kit's `Fixture`): read, inserted into a new
    /// in-memory container of ``FuzzModel/model`` and saved. It must be refused with a
    /// `Fixture.Problem` or a typed `PersistenceError`, or save every object it names.
    func evaluateFixture(_ bytes: [UInt8]) -> FuzzOutcome {
        let fixture: Fixture
        do {
            fixture = try Fixture(data: Data(bytes))
        } catch {
            return fixtureRejection(error)
        }
        let container: PersistentContainer
        do {
            container = try PersistentContainer(model: FuzzModel.model, storeDescription: .inMemory)
        } catch {
            return .violation("an empty in-memory container cannot be made: \(error)")
        }
        let context = container.newContext()
        let inserted: Int
        do {
            try fixture.insert(into: context)
            inserted = context.insertedObjects.count
            try context.save()
        } catch {
            return fixtureRejection(error)
        }
        let saved = container.committedSnapshot().count
        guard saved == inserted else {
            return .violation("the fixture inserted \(inserted) objects, the store holds \(saved)")
        }
        return .decoded(objects: saved)
    }

    private func fixtureRejection(_ error: any Error) -> FuzzOutcome {
        if let problem = error as? Fixture.Problem {
            guard !problem.description.isEmpty, problem.description.utf8.count <= 4_096 else {
                return .violation("a problem described in \(problem.description.utf8.count) bytes")
            }
            return .decoded(objects: 0)
        }
        guard let error = error as? PersistenceError else {
            return .violation("an untyped error: \(type(of: error)): \(error)")
        }
        guard Self.fixtureCodes.contains(error.code) else { return .violation("an unexpected code: \(error)") }
        return .rejected(error)
    }

    /// The fixture target's seeds: documents for ``FuzzModel/model``.
    static let fixtureSeeds: [(name: String, json: String)] = [
        ("empty.json", "{}"),
        (
            "items.json",
            """
            {"Owner": [{"$id": "ann", "name": "Ann"}],
             "Tag": [{"$id": "red", "title": "red"}, {"$id": "blue", "title": "blue"}],
             "Item": [{"text": "caf\\u00e9", "flag": true, "small": -7, "medium": 70000, "large": -1099511627776,
                       "single": 1.5, "real": -0.25, "amount": "12.34", "date": "2001-01-01T00:16:40Z",
                       "blob": "AAEC/w==", "identifier": "E621E1F8-C36C-495A-93FC-0C247A3E6E5F",
                       "link": "https://example.com/a?b=c", "owner": "ann", "tags": ["red", "blue"]},
                      {"text": "", "flag": null, "owner": null, "tags": []}]}
            """
        ),
    ]
}
