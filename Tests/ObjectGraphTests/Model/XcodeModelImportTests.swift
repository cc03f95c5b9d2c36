import Foundation
import ObjectGraph
import Testing

/// The model fixtures in Tests/Fixtures/XcodeModels (written for these tests in the styles of
/// Xcode 4 to 15).
enum XcodeModelFixtures {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/XcodeModels")

    static func url(_ name: String) -> URL { folder.appendingPathComponent(name) }
}

@Suite struct XcodeModelImportTests {
    private func journal() throws -> XcodeModel {
        try XcodeModel(contentsOf: XcodeModelFixtures.url("Journal.xcdatamodeld"))
    }

    private func attribute(_ name: String, of entity: String, in model: XcodeModel) throws -> XcodeModel.Attribute {
        try #require(model.entity(named: entity)?.attributes.first { $0.name == name })
    }

    // MARK: - Attribute types

    @Test func everyAttributeTypeMapsToItsStorageType() throws {
        let model = try journal()
        let entry = try #require(model.entity(named: "Entry")?.description)
        let types = Dictionary(uniqueKeysWithValues: entry.attributes.map { ($0.name, $0.type) })
        #expect(
            types == [
                "attachment": .binary, "code": .string, "color": .binary, "isFavorite": .boolean, "keywords": .codable,
                "location": .uri, "mood": .integer16, "price": .decimal, "rating": .double, "serial": .integer64,
                "text": .string, "weight": .float, "wordCount": .integer32,
            ])
        let item = try #require(model.entity(named: "Item")?.description)
        #expect(item.attributes.map(\.type) == [.date, .uuid])
    }

    @Test func defaultsAreReadPerType() throws {
        let model = try journal()
        let entry = try #require(model.entity(named: "Entry")?.description.attributesByName)
        #expect(entry["code"]?.defaultValue == .string("ABC"))
        #expect(entry["isFavorite"]?.defaultValue == .bool(false))
        #expect(entry["mood"]?.defaultValue == .int(0))
        #expect(entry["price"]?.defaultValue == .decimal(Decimal(string: "9.99")!))
        #expect(entry["rating"]?.defaultValue == .double(0.5))
        #expect(entry["weight"]?.defaultValue == .float(1.5))
        #expect(entry["text"]?.defaultValue == .null)
        let createdAt = try attribute("createdAt", of: "Item", in: model).description
        #expect(createdAt.defaultValue == .date(Date(timeIntervalSinceReferenceDate: 694_224_000)))
        #expect(model.entity(named: "Notebook")?.description.attributes[0].defaultValue == .string("Untitled"))
    }

    @Test func optionalityIndexesAndValidationRulesAreRead() throws {
        let model = try journal()
        let entry = try #require(model.entity(named: "Entry")?.description.attributesByName)
        #expect(entry["text"]?.isOptional == true)
        #expect(entry["code"]?.isOptional == false)
        #expect(entry["serial"]?.isIndexed == true)
        #expect(entry["code"]?.validation == AttributeValidation(length: 3...3, pattern: "[A-Z]+"))
        #expect(entry["mood"]?.validation == AttributeValidation(minimum: .int(-2), maximum: .int(2)))
        #expect(entry["wordCount"]?.validation == AttributeValidation(minimum: .int(0)))
        let person = try #require(model.entity(named: "Person")?.description.attributesByName)
        #expect(person["name"]?.validation.length == 1...Int.max)
        #expect(
            person["birthday"]?.validation.minimum == .date(Date(timeIntervalSinceReferenceDate: -3_155_673_600)))
        let photo = try #require(model.entity(named: "Photo")?.description.attributesByName)
        #expect(photo["imageData"]?.validation.length == 0...1_048_576)
        // A single-property fetch index indexes its attribute.
        #expect(try attribute("createdAt", of: "Item", in: model).description.isIndexed)
    }

    @Test func importDetailsAreKeptBesideTheDescriptions() throws {
        let model = try journal()
        let color = try attribute("color", of: "Entry", in: model)
        #expect(color.xcodeType == "Transformable")
        #expect(color.valueTransformerName == "ColorTransformer")
        #expect(color.customClassName == "UIColor")
        let keywords = try attribute("keywords", of: "Entry", in: model)
        #expect(keywords.customClassName == "[String]")
        #expect(try attribute("attachment", of: "Entry", in: model).allowsExternalBinaryDataStorage)
        #expect(try attribute("mood", of: "Entry", in: model).usesScalarValueType == true)
        #expect(try attribute("text", of: "Entry", in: model).userInfo == ["searchable": "YES"])
        let item = try #require(model.entity(named: "Item"))
        #expect(item.userInfo == ["kind": "base"])
        #expect(item.className == "Item")
        #expect(
            item.fetchIndexes == [
                .init(name: "byCreatedAt", elements: [.init(property: "createdAt", isAscending: false)])
            ])
        let entry = try #require(model.entity(named: "Entry"))
        #expect(
            entry.fetchIndexes.first?.elements == [
                .init(property: "mood", isAscending: true), .init(property: "serial", isAscending: false),
            ])
        #expect(model.versionIdentifier == "3.0")
    }

    @Test func transientAttributesStayOutOfTheModelAndAreListed() throws {
        let model = try journal()
        let entry = try #require(model.entity(named: "Entry"))
        #expect(entry.transientAttributes.map(\.name) == ["draft"])
        #expect(entry.description.attributesByName["draft"] == nil)
        #expect(entry.attributes.count == entry.description.attributes.count + 1)
        #expect(model.notes.contains { $0.contains("transient attribute 'draft'") })
    }

    // MARK: - Entities and relationships

    @Test func inheritanceAbstractAndRenamingAreRead() throws {
        let model = try journal()
        let item = try #require(model.entity(named: "Item")?.description)
        #expect(item.isAbstract)
        #expect(item.superentityName == nil)
        let entry = try #require(model.entity(named: "Entry")?.description)
        #expect(entry.superentityName == "Item")
        #expect(!entry.isAbstract)
        // Each entity holds only its own properties, as in Core Data's XML.
        #expect(entry.attributesByName["createdAt"] == nil)
        #expect(model.entity(named: "Photo")?.description.superentityName == "Item")
        #expect(model.entity(named: "Person")?.description.renamingIdentifier == "Owner")
        #expect(model.entity(named: "Entry")?.className == "Entry")  // ".Entry": the current module
    }

    @Test func relationshipsKeepInverseRuleCardinalityAndCounts() throws {
        let model = try journal()
        let notebook = try #require(model.entity(named: "Notebook")?.description.relationshipsByName)
        #expect(
            notebook["items"]
                == RelationshipDescription(
                    name: "items", destination: "Item", inverse: "notebook", isToMany: true, deleteRule: .cascade))
        #expect(
            notebook["owner"] == RelationshipDescription(name: "owner", destination: "Person", inverse: "notebooks"))
        let tags = try #require(model.entity(named: "Entry")?.description.relationshipsByName["tags"])
        #expect(tags.isToMany && tags.isOrdered && tags.maxCount == 10 && tags.minCount == 0)
        #expect(model.entity(named: "Person")?.description.relationships[0].deleteRule == .deny)
        #expect(model.entity(named: "Tag")?.description.relationships[0].deleteRule == .noAction)
        #expect(model.entity(named: "Tag")?.description.uniquenessConstraints == [["name"]])
    }

    @Test func configurationsAndFetchRequestTemplatesAreRead() throws {
        let model = try journal()
        #expect(
            model.configurations == [
                .init(name: "Cloud", entityNames: ["Tag"], isUsedWithCloudKit: true),
                .init(
                    name: "Local", entityNames: ["Entry", "Item", "Notebook", "Person", "Photo"],
                    isUsedWithCloudKit: false),
            ])
        #expect(
            model.fetchRequestTemplates == [
                .init(
                    name: "FavoriteEntries", entityName: "Entry", predicateFormat: "isFavorite == YES AND mood > 0",
                    fetchLimit: 20)
            ])
    }

    @Test func legacyModelLoadsWithNotesForWhatItChanged() throws {
        let model = try XcodeModel(contentsOf: XcodeModelFixtures.url("Legacy.xcdatamodel"))
        #expect(model.name == "Legacy")
        #expect(model.entities.map(\.name) == ["Account", "Bank", "Branch", "Transaction"])
        let account = try #require(model.entity(named: "Account"))
        #expect(account.className == "LGAccount")
        #expect(account.description.attributes.count == 6)
        #expect(account.description.attributesByName["opened"]?.defaultValue == .null)
        #expect(account.description.attributesByName["number"]?.isIndexed == true)
        #expect(account.fetchIndexes.map { $0.elements.map(\.property) } == [["owner", "number"]])
        // minCount="1" maxCount="1" on a to-one relationship is no count rule.
        let bank = try #require(account.description.relationshipsByName["bank"])
        #expect(bank.minCount == 0 && bank.maxCount == 0 && !bank.isToMany)
        #expect(model.entity(named: "Transaction")?.description.relationships[0].isOptional == false)
        #expect(model.entity(named: "Branch")?.className == nil)
        // Inverses that do not point back are dropped, with a note for each.
        #expect(model.entity(named: "Bank")?.description.relationshipsByName["headOffice"]?.inverse == nil)
        #expect(model.entity(named: "Branch")?.description.relationshipsByName["bank"]?.inverse == nil)
        #expect(model.notes.filter { $0.contains("without an inverse") }.count == 2)
        #expect(model.notes.contains { $0.contains("'Account.opened' ('now')") })
        _ = try model.makeModel()
    }

    // MARK: - Building models

    @Test func importedModelStoresObjectsUntyped() throws {
        let model = try ManagedObjectModel(contentsOf: XcodeModelFixtures.url("Legacy.xcdatamodel"))
        let url = TemporaryDirectory.make().appendingPathComponent("legacy.json")
        do {
            let context = try PersistentContainer(model: model, storeDescription: .jsonFile(url)).newContext()
            let account = ManagedObject(entity: try #require(model.entity(named: "Account")), insertInto: context)
            try account.setValue(Int32(42), forKey: "number")
            try account.setValue("Ada", forKey: "owner")
            let transaction = ManagedObject(
                entity: try #require(model.entity(named: "Transaction")), insertInto: context)
            try transaction.setValue(account, forKey: "account")
            try context.save()
        }
        let context = try PersistentContainer(model: model, storeDescription: .jsonFile(url)).newContext()
        let accounts = try context.fetch(FetchRequest<ManagedObject>(entityName: "Account"))
        #expect(accounts.count == 1)
        #expect(try accounts[0].value(forKey: "owner") as? String == "Ada")
        #expect(try (accounts[0].value(forKey: "transactions") as? Set<ManagedObject>)?.count == 1)
    }

    @Test func xmlTextLoadsWithoutAFile() throws {
        let model = try XcodeModel(
            xml: """
                <model><entity name="A"><attribute name="x" attributeType="Integer 64" defaultValueString="7"/></entity></model>
                """)
        #expect(model.entities.map(\.name) == ["A"])
        #expect(try model.makeModel().entity(named: "A")?.attributes[0].defaultValue == .int(7))
    }

    // MARK: - Refusals

    @Test func unsupportedPropertiesAreRefusedNamingEntityAndProperty() {
        let error = #expect(throws: PersistenceError.self) {
            try XcodeModel(contentsOf: XcodeModelFixtures.url("Extras.xcdatamodel"))
        }
        #expect(error?.code == .unsupportedFormat)
        #expect(error?.entityName == "Author")
        #expect(error?.key == "bookCount")
        #expect(error?.line == 5)
        #expect(error?.message.contains("derived attribute") == true)
        #expect(error?.message.contains("skipsUnsupportedProperties") == true)
    }

    @Test func unsupportedPropertiesCanBeSkippedExplicitly() throws {
        let model = try XcodeModel(
            contentsOf: XcodeModelFixtures.url("Extras.xcdatamodel"),
            options: XcodeModel.Options(skipsUnsupportedProperties: true))
        let author = try #require(model.entity(named: "Author"))
        #expect(author.description.attributes.map(\.name) == ["name"])
        #expect(
            author.fetchedProperties == [
                .init(
                    name: "recentBooks", entityName: "Book", predicateFormat: "author == $FETCH_SOURCE AND year > 2000")
            ])
        #expect(model.notes.filter { $0.contains("is left out") }.count == 3)
        _ = try model.makeModel()
    }

    @Test func inconsistentModelsAreRefusedWithTheLine() {
        for (xml, line, phrase) in [
            (
                #"<model><entity name="A">\#n<relationship name="r" deletionRule="Nullify"/></entity></model>"#, 2,
                "no destination entity"
            ),
            (
                #"<model><entity name="A"><attribute name="x" attributeType="Money"/></entity></model>"#, 1,
                "'Money' is not one Core Data defines"
            ),
            (
                #"<model><entity name="A"><attribute name="x" attributeType="Undefined"/></entity></model>"#, 1,
                "only a transient attribute"
            ),
            (
                #"<model><entity name="A"><relationship name="r" destinationEntity="A" deletionRule="Explode"/></entity></model>"#,
                1, "delete rule 'Explode'"
            ),
        ] {
            let error = #expect(throws: PersistenceError.self) { try XcodeModel(xml: xml) }
            #expect(error?.code == .invalidModel)
            #expect(error?.line == line, "\(phrase)")
            #expect(error?.entityName == "A")
            #expect(error?.message.contains(phrase) == true, "\(error?.message ?? "")")
        }
        let parent = #expect(throws: PersistenceError.self) {
            try XcodeModel(xml: #"<model><entity name="A" parentEntity="Missing"/></model>"#)
        }
        #expect(parent?.message.contains("parent entity 'Missing' is not in the model") == true)
        let cycle = #expect(throws: PersistenceError.self) {
            try XcodeModel(
                xml: #"<model><entity name="A" parentEntity="B"/><entity name="B" parentEntity="A"/></model>"#)
        }
        #expect(cycle?.message.contains("form a cycle") == true)
        let wrongRoot = #expect(throws: PersistenceError.self) { try XcodeModel(xml: "<plist/>") }
        #expect(wrongRoot?.message.contains("not an Xcode model") == true)
    }

    @Test func missingAndMalformedFilesAreRefused() throws {
        let directory = TemporaryDirectory.make()
        let missing = #expect(throws: PersistenceError.self) {
            try XcodeModel(contentsOf: directory.appendingPathComponent("None.xcdatamodel"))
        }
        #expect(missing?.code == .invalidModel)
        #expect(missing?.message.contains("no such file") == true)
        let legacy = directory.appendingPathComponent("Old.xcdatamodel")
        try FileManager.default.createDirectory(at: legacy, withIntermediateDirectories: true)
        try Data([0x62, 0x70]).write(to: legacy.appendingPathComponent("elements"))
        let old = #expect(throws: PersistenceError.self) { try XcodeModel(contentsOf: legacy) }
        #expect(old?.message.contains("Xcode 3 format") == true)
        let broken = directory.appendingPathComponent("Broken.xcdatamodel")
        try FileManager.default.createDirectory(at: broken, withIntermediateDirectories: true)
        try Data("<model>\n<entity name=\"A\">\n</model>".utf8).write(to: broken.appendingPathComponent("contents"))
        let malformed = #expect(throws: PersistenceError.self) { try ManagedObjectModel(contentsOf: broken) }
        #expect(malformed?.code == .invalidModel)
        #expect(malformed?.line == 3)
        #expect(malformed?.fileURL?.lastPathComponent == "contents")
    }
}
