import Foundation
import ObjectGraph
import Testing

/// A subclass with its own convenience initializer.
final class Invoice: ManagedObject {
    @Attribute var number = ""

    convenience init(context: ManagedContext, number: String) {
        self.init(context: context)
        self.number = number
    }
}

/// A subclass chain whose middle class overrides the designated initializer and keeps state of
/// its own, as Core Data subclasses that override `init(entity:insertInto:)` do.
class Dossier: ManagedObject {
    @Attribute var title = ""
    private(set) var createdThroughDesignatedInitializer = false

    required init(entity: EntityDescription, insertInto context: ManagedContext?) {
        super.init(entity: entity, insertInto: context)
        createdThroughDesignatedInitializer = true
    }
}

final class Memo: Dossier {
    @Attribute var body = ""
}

/// A generic repository, as Core Data code writes them.
struct Repository<Object: ManagedObject> {
    let context: ManagedContext

    func create() -> Object { Object(context: context) }

    func all() throws -> [Object] { try context.fetch(FetchRequest<Object>()) }
}

func makeObject<T: ManagedObject>(_: T.Type, in context: ManagedContext) -> T { T(context: context) }

@Suite struct GenericCreationTests {
    private func makeContext() throws -> ManagedContext {
        let model = try ManagedObjectModel(Invoice.self, Dossier.self, Memo.self)
        return try PersistentContainer(model: model, storeDescription: .inMemory).newContext()
    }

    @Test func genericFunctionCreatesObjectsOfTheTypeParameter() throws {
        let context = try makeContext()
        let invoice = makeObject(Invoice.self, in: context)
        invoice.number = "INV-1"
        #expect(invoice.isInserted)
        #expect(invoice.managedObjectContext === context)
        try context.save()
        #expect(try context.fetch(Invoice.fetchRequest()).map(\.number) == ["INV-1"])
    }

    @Test func genericRepositoryCreatesAndFetches() throws {
        let context = try makeContext()
        let memos = Repository<Memo>(context: context)
        memos.create().body = "first"
        memos.create().body = "second"
        try context.save()
        #expect(Set(try memos.all().map(\.body)) == ["first", "second"])
    }

    @Test func metatypeValuesCreateObjectsOfTheirDynamicType() throws {
        let context = try makeContext()
        let types: [ManagedObject.Type] = [Invoice.self, Memo.self]
        let created = types.map { $0.init(context: context) }
        #expect(created.map { $0.entity.name } == ["Invoice", "Memo"])
        #expect(created[1] is Memo)
    }

    @Test func subclassesKeepTheirOwnInitializers() throws {
        let context = try makeContext()
        let invoice = Invoice(context: context, number: "INV-2")
        #expect(invoice.number == "INV-2")
        let memo = makeObject(Memo.self, in: context)
        #expect(memo.createdThroughDesignatedInitializer)
        let document = Repository<Dossier>(context: context).create()
        #expect(document.createdThroughDesignatedInitializer)
        #expect(type(of: document) == Dossier.self)
    }
}
