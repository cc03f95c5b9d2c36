import Foundation
import ObjectGraph

/// Version 2 of the people model: every inferred change at once. `Person` is renamed `Human`,
/// `name` `fullName`, `pets` `companions` and `owner` `keeper`; `age` widens from Int16 to Int64,
/// `score` from Int32 to Double, `height` from Float to Double and `balance` from Int64 to
/// Decimal; `nickname` becomes required with a default; `bio` (optional) and `level` (required,
/// defaulted) are new, as are the entity `Toy` and the relationship between pets and toys.
enum PeopleV2 {
    static func model() throws -> ManagedObjectModel {
        var human = EntityDescription(
            name: "Human",
            attributes: [
                AttributeDescription(name: "fullName", type: .string, renamingIdentifier: "name"),
                AttributeDescription(name: "age", type: .integer64),
                AttributeDescription(name: "score", type: .double, isOptional: true),
                AttributeDescription(name: "height", type: .double, isOptional: true),
                AttributeDescription(name: "nickname", type: .string, defaultValue: "none"),
                AttributeDescription(name: "email", type: .string, isOptional: true),
                AttributeDescription(name: "balance", type: .decimal, isOptional: true),
                AttributeDescription(name: "bio", type: .string, isOptional: true),
                AttributeDescription(name: "level", type: .integer64, defaultValue: 1),
            ],
            relationships: [
                RelationshipDescription(
                    name: "companions", destination: "Pet", inverse: "keeper", isToMany: true, deleteRule: .cascade,
                    renamingIdentifier: "pets")
            ])
        human.renamingIdentifier = "Person"
        return try ManagedObjectModel(entities: [
            human,
            EntityDescription(
                name: "Pet",
                attributes: [AttributeDescription(name: "name", type: .string)],
                relationships: [
                    RelationshipDescription(
                        name: "keeper", destination: "Human", inverse: "companions", renamingIdentifier: "owner"),
                    RelationshipDescription(name: "toys", destination: "Toy", inverse: "pet", isToMany: true),
                ]),
            EntityDescription(
                name: "Toy",
                attributes: [AttributeDescription(name: "name", type: .string)],
                relationships: [RelationshipDescription(name: "pet", destination: "Pet", inverse: "toys")]),
        ])
    }
}
