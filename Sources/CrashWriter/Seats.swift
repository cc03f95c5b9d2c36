import Foundation
import ObjectGraph

/// A model whose seats are unique by row and number together: a SQL store keeps the constraint as
/// a unique index over both columns.
func seatModel() throws -> ManagedObjectModel {
    try ManagedObjectModel(entities: [
        EntityDescription(
            name: "Seat",
            attributes: [
                AttributeDescription(name: "row", type: .string),
                AttributeDescription(name: "number", type: .integer64),
            ],
            uniquenessConstraints: [["row", "number"]])
    ])
}

/// `insert-seat PATH ROW NUMBER`: opens the SQLite store at PATH, inserts the seat and saves;
/// prints "saved" and exits 0, or prints the error and exits 1. The parent checks that two
/// processes cannot both store the same seat.
func runInsertSeat(path: String, row: String, number: Int64) -> Never {
    do {
        let container = try PersistentContainer(
            model: try seatModel(), store: SQLiteStore(url: URL(fileURLWithPath: path)))
        let context = container.newContext()
        let seat = ManagedObject(entity: container.model.entity(named: "Seat")!, insertInto: context)
        try seat.setValue(row, forKey: "row")
        try seat.setValue(number, forKey: "number")
        try context.save()
        FileHandle.standardOutput.write(Data("saved\n".utf8))
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("\(error)\n".utf8))
        exit(1)
    }
}
