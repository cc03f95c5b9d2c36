import Foundation
import GRDB
import ObjectGraph

/// A parent whose children are deleted with it (cascade).
final class Parent: ManagedObject {
    @Attribute var rank: Int64 = 0
    @Relationship(inverse: "parent", deleteRule: .cascade) var children: Set<Child>
}

/// Whether `Child` and `Pet` declare `deletesWithoutInstances` (they override no deletion hook):
/// the context-delete rows run with both, since a class that does not declare it, the default,
/// makes an object of each cascaded child. Set only between workloads, on the main thread.
nonisolated(unsafe) var childrenDeleteWithoutInstances = false

final class Child: ManagedObject {
    override class var deletesWithoutInstances: Bool { childrenDeleteWithoutInstances }
    @Attribute var name = ""
    @Relationship(inverse: "children") var parent: Parent?
}

/// An owner whose pets lose their owner when it is deleted (nullify).
final class Owner: ManagedObject {
    @Attribute var rank: Int64 = 0
    @Relationship(inverse: "owner", deleteRule: .nullify) var pets: Set<Pet>
}

final class Pet: ManagedObject {
    override class var deletesWithoutInstances: Bool { childrenDeleteWithoutInstances }
    @Attribute var name = ""
    @Relationship(inverse: "pets") var owner: Owner?
}

/// 2,000 parents with 10 children each; 1,000 parents (`rank < 1000`) are deleted, cascading
/// to (or nullifying) 10,000 children: a context delete of the fetched parents + save, and a
/// `BatchDeleteRequest` with the predicate, vs `DELETE FROM parent WHERE rank < 1000` with
/// `ON DELETE CASCADE` / `ON DELETE SET NULL` (foreign keys on, the child's foreign key indexed,
/// as SQLite's documentation asks).
func runDeleteRuleWorkloads() throws {
    if let only, !only.hasPrefix("delete") { return }
    let model = try ManagedObjectModel(Parent.self, Child.self, Owner.self, Pet.self)
    let parents = 2_000
    let childrenEach = 10
    let deleted = 1_000
    for cascade in [true, false] {
        let action = cascade ? "CASCADE" : "SET NULL"
        func fillOurs() throws -> ManagedContext {
            let container = try PersistentContainer(model: model, storeDescription: .inMemory)
            let context = container.newContext()
            for rank in 0..<parents {
                if cascade {
                    let parent = Parent(context: context)
                    parent.rank = Int64(rank)
                    for number in 0..<childrenEach {
                        let child = Child(context: context)
                        child.name = "child \(number)"
                        child.parent = parent
                    }
                } else {
                    let owner = Owner(context: context)
                    owner.rank = Int64(rank)
                    for number in 0..<childrenEach {
                        let pet = Pet(context: context)
                        pet.name = "pet \(number)"
                        pet.owner = owner
                    }
                }
            }
            try context.save()
            context.reset()
            return context
        }
        func checkOurs(_ context: ManagedContext) throws {
            let left =
                cascade ? try context.count(for: Child.fetchRequest()) : try context.count(for: Pet.fetchRequest())
            precondition(left == (cascade ? (parents - deleted) * childrenEach : parents * childrenEach))
            if !cascade {
                var orphans = Pet.fetchRequest()
                orphans.predicate = try FetchPredicate(format: "owner == nil")
                let orphaned = try context.count(for: orphans)
                precondition(orphaned == deleted * childrenEach)
            }
        }
        let schema = """
            CREATE TABLE parent (id INTEGER PRIMARY KEY, rank INTEGER NOT NULL);
            CREATE TABLE child (id INTEGER PRIMARY KEY, name TEXT NOT NULL,
                parentId INTEGER REFERENCES parent(id) ON DELETE \(action));
            CREATE INDEX child_parent ON child(parentId);
            """
        func fillSQLite(
            _ execute: (String) throws -> Void, insertParent: (Int) throws -> Void,
            insertChild: (Int, Int) throws -> Void
        ) rethrows {
            try execute(schema)
            for rank in 0..<parents {
                try insertParent(rank)
                for number in 0..<childrenEach { try insertChild(number, rank + 1) }
            }
        }
        let sqlCheck = cascade ? "SELECT count(*) FROM child" : "SELECT count(*) FROM child WHERE parentId IS NULL"
        let sqlExpected = cascade ? (parents - deleted) * childrenEach : deleted * childrenEach
        for (batch, withoutInstances) in [(false, false), (false, true), (true, false)] {
            childrenDeleteWithoutInstances = withoutInstances
            defer { childrenDeleteWithoutInstances = false }
            let kind =
                batch
                ? "BatchDeleteRequest"
                : "context delete + save\(withoutInstances ? " (children declare deletesWithoutInstances)" : "")"
            try compare(
                "delete \(deleted) of \(parents) parents, \(cascade ? "cascading to" : "nullifying") \(deleted * childrenEach) children: \(kind) vs DELETE … ON DELETE \(action)",
                iterations: 1, repetitions: 5,
                objectGraph: {
                    let context = try fillOurs()
                    let predicate = try FetchPredicate(format: "rank < %d", deleted)
                    let elapsed = try timed {
                        if batch {
                            let result = try context.execute(
                                cascade
                                    ? BatchDeleteRequest(Parent.self, predicate: predicate)
                                    : BatchDeleteRequest(Owner.self, predicate: predicate))
                            precondition(result.count >= deleted)
                        } else if cascade {
                            var request = Parent.fetchRequest()
                            request.predicate = predicate
                            for parent in try context.fetch(request) { context.delete(parent) }
                            try context.save()
                        } else {
                            var request = Owner.fetchRequest()
                            request.predicate = predicate
                            for owner in try context.fetch(request) { context.delete(owner) }
                            try context.save()
                        }
                    }
                    context.reset()
                    try checkOurs(context)
                    return elapsed
                },
                grdb: {
                    let queue = try DatabaseQueue()
                    try queue.write { db in
                        try fillSQLite(
                            { try db.execute(sql: $0) },
                            insertParent: {
                                try db.execute(sql: "INSERT INTO parent (rank) VALUES (?)", arguments: [$0])
                            },
                            insertChild: {
                                try db.execute(
                                    sql: "INSERT INTO child (name, parentId) VALUES (?, ?)",
                                    arguments: ["child \($0)", $1])
                            })
                    }
                    let elapsed = try timed {
                        try queue.write { db in
                            try db.execute(sql: "DELETE FROM parent WHERE rank < ?", arguments: [deleted])
                        }
                    }
                    let left = try queue.read { try Int.fetchOne($0, sql: sqlCheck) }
                    precondition(left == sqlExpected)
                    return elapsed
                },
                raw: {
                    let database = RawDatabase()
                    database.execute("PRAGMA foreign_keys = ON")
                    database.execute(schema)
                    database.transaction {
                        let parent = database.prepare("INSERT INTO parent (rank) VALUES (?)")
                        let child = database.prepare("INSERT INTO child (name, parentId) VALUES (?, ?)")
                        fillSQLite(
                            { _ in },
                            insertParent: {
                                parent.bind(1, Int64($0))
                                parent.step()
                                parent.reset()
                            },
                            insertChild: {
                                child.bind(1, "child \($0)")
                                child.bind(2, Int64($1))
                                child.step()
                                child.reset()
                            })
                    }
                    let delete = database.prepare("DELETE FROM parent WHERE rank < ?")
                    let elapsed = timed {
                        delete.bind(1, Int64(deleted))
                        delete.step()
                        delete.reset()
                    }
                    precondition(database.prepare(sqlCheck).scalar() == sqlExpected)
                    return elapsed
                })
        }
    }
}
