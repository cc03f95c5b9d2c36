// A child process for the crash-safety test: saves to a store in a loop until it is killed.
//
//     objectgraph-crash-writer json|binary|binary-deleteall|sqlite PATH
//     objectgraph-crash-writer migrate-json|migrate-binary|migrate-sqlite PATH   (see Migration.swift)
//     objectgraph-crash-writer insert-seat PATH ROW NUMBER   (see Seats.swift)
//
// Save number i inserts Entry i (with a payload whose size varies) and sets the Tally to i, in
// one save; after each save returns it prints i on its own line. The parent kills it with
// SIGKILL at a random moment and checks that the store holds exactly the first M saves for some
// M at least as large as the last number printed.
//
// `binary-deleteall` also deletes every Entry, with a batch delete (one "delete all" record),
// after each save whose number is a multiple of 3, and prints the number only after that: the
// store then holds entries d+1...M (d the last multiple of 3 below M), or none if M is a
// multiple of 3 and its delete was made.
import Foundation
import ObjectGraph

final class Entry: ManagedObject {
    @Attribute var number: Int64 = 0
    @Attribute var payload = ""
}

final class Tally: ManagedObject {
    @Attribute var count: Int64 = 0
}

let arguments = CommandLine.arguments
if arguments.count == 5, arguments[1] == "insert-seat", let number = Int64(arguments[4]) {
    runInsertSeat(path: arguments[2], row: arguments[3], number: number)
}
if arguments.count == 3, ["migrate-json", "migrate-binary", "migrate-sqlite"].contains(arguments[1]) {
    runMigration(kind: String(arguments[1].dropFirst("migrate-".count)), path: arguments[2])
}
guard arguments.count == 3, ["json", "binary", "binary-deleteall", "sqlite"].contains(arguments[1]) else {
    FileHandle.standardError.write(
        Data("usage: objectgraph-crash-writer json|binary|binary-deleteall|sqlite PATH\n".utf8))
    exit(2)
}
let url = URL(fileURLWithPath: arguments[2])
let store: any PersistentStore =
    switch arguments[1] {
    case "json": JSONFileStore(url: url)
    case "sqlite": SQLiteStore(url: url)
    default: BinaryFileStore(url: url)
    }
do {
    let container = try PersistentContainer(model: try ManagedObjectModel(Entry.self, Tally.self), store: store)
    let context = container.newContext()
    let tally = try context.fetch(Tally.fetchRequest()).first ?? Tally(context: context)
    var number = tally.count
    if arguments[1] == "binary-deleteall", number > 0, number % 3 == 0 {
        // Finish the delete that a kill may have interrupted.
        try context.execute(BatchDeleteRequest(Entry.self))
    }
    while true {
        number += 1
        let entry = Entry(context: context)
        entry.number = number
        entry.payload = String(repeating: "x", count: Int(number % 7) * 300)
        tally.count = number
        try context.save()
        if arguments[1] == "binary-deleteall", number % 3 == 0 {
            context.mergeChanges(from: try context.execute(BatchDeleteRequest(Entry.self)).notification)
        }
        FileHandle.standardOutput.write(Data("\(number)\n".utf8))
    }
} catch {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(1)
}
