import Foundation
import ObjectGraph

// Models for the integrity tests: delete-rule chains and cycles, every relationship pairing,
// validation rules and uniqueness constraints.

final class Company: ManagedObject {
    @Attribute var name = ""
    @Relationship(inverse: "company", deleteRule: .cascade) var departments: Set<Department>
}

final class Department: ManagedObject {
    @Attribute var name = ""
    @Relationship(inverse: "departments") var company: Company?
    @Relationship(inverse: "department", deleteRule: .cascade) var teams: [Team]
}

final class Team: ManagedObject {
    @Attribute var name = ""
    @Relationship(inverse: "teams") var department: Department?
    @Relationship(inverse: "team", deleteRule: .cascade) var twin: Twin?
}

/// One side of a cascade cycle with `Team`.
final class Twin: ManagedObject {
    @Attribute var name = ""
    @Relationship(inverse: "twin", deleteRule: .cascade) var team: Team?
}

final class Person: ManagedObject {
    @Attribute(length: 1...40) var name = "someone"
    @Attribute(minimum: 0, maximum: 150) var age: Int16 = 0
    @Attribute(pattern: "[^@ ]+@[^@ ]+") var email: String?
    @Attribute(minimum: Date(timeIntervalSinceReferenceDate: 0)) var joined = Date(timeIntervalSinceReferenceDate: 0)
    @Attribute var firstName = ""
    @Attribute var lastName = ""
    @Relationship(inverse: "holder", deleteRule: .nullify) var badge: Badge?
    @Relationship(inverse: "members", minCount: 0, maxCount: 3) var clubs: Set<Club>

    override class var uniquenessConstraints: [[String]] { [["email"], ["firstName", "lastName"]] }

    var refusesDeletion = false
    override func validateForDelete() throws {
        if refusesDeletion { throw PersistenceError.validation("This person may not be deleted.", object: self) }
    }

    override func validateForInsert() throws {
        if name == "forbidden" { throw PersistenceError.validation("Not on insert.", object: self, key: "name") }
    }
}

final class Badge: ManagedObject {
    @Attribute var number: Int64 = 0
    @Relationship(inverse: "badge") var holder: Person?
}

final class Club: ManagedObject {
    @Attribute var title = ""
    @Relationship(inverse: "clubs") var members: Set<Person>
}

enum IntegrityModels {
    static let model = try! ManagedObjectModel(
        Company.self, Department.self, Team.self, Twin.self, Person.self, Badge.self, Club.self)
}

func makeIntegrityContainer(_ store: any PersistentStore = SharedSuiteStore.makeStore()) throws
    -> PersistentContainer
{
    try PersistentContainer(model: IntegrityModels.model, store: store)
}

@discardableResult
func makePerson(_ context: ManagedContext, _ first: String, _ last: String, email: String? = nil) -> Person {
    let person = Person(context: context)
    person.firstName = first
    person.lastName = last
    person.name = "\(first) \(last)"
    person.email = email
    return person
}
