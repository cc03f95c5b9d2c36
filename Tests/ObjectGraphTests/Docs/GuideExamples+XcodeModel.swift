// The Xcode model part of PortingFromCoreData.md (reading Garden.xcdatamodeld, the classes
// `objectgraph generate` writes for it, binding them, the bundle's versions), compiled here;
// GuideTests checks that every Swift block of the guide is one of these regions, and
// XcodeModelGuideTests runs them against Tests/Fixtures/XcodeModels/Garden.xcdatamodeld.
import Foundation
import ObjectGraph

// PortingFromCoreData example 7 begin
/// NSPersistentContainer(name: "Garden") loads the compiled Garden.momd; here the source is read.
func openGarden(model modelURL: URL, store storeURL: URL) throws -> PersistentContainer {
    let bundle = try XcodeModelBundle(contentsOf: modelURL)  // Garden.xcdatamodeld
    // Which version was taken when .xccurrentversion names none, and what the import changed or
    // left out (an inverse that does not point back, a transient attribute, a default it could not read).
    for note in [bundle.currentVersionNote].compactMap({ $0 }) + bundle.currentVersion.notes {
        print("model: \(note)")
    }
    let model = try bundle.currentVersion.makeModel()
    return try PersistentContainer(model: model, storeDescription: .binaryFile(storeURL))
}

func plantUntyped(in container: PersistentContainer) throws {
    let context = container.newContext()
    // NSEntityDescription.insertNewObject(forEntityName: "Bed", into: context)
    let bed = ManagedObject(entity: container.model.entity(named: "Bed")!, insertInto: context)
    try bed.setValue("North", forKey: "name")
    let crop = ManagedObject(entity: container.model.entity(named: "Crop")!, insertInto: context)
    try crop.setValue("Kale", forKey: "variety")
    try crop.setValue(bed, forKey: "bed")
    try context.save()
}
// PortingFromCoreData example 7 end

// PortingFromCoreData example 8 begin
/// The entity `Bed`.
final class Bed: ManagedObject {
    override class var uniquenessConstraints: [[String]] { [["name"]] }

    @Attribute var area: Double = 1.0
    @Attribute var name: String
    @Relationship(inverse: "bed", deleteRule: .cascade) var crops: Set<Crop>
}

/// The entity `Crop`.
final class Crop: ManagedObject {
    @Attribute(optional: true) var rows: Int16 = 1
    @Attribute var sownAt: Date?
    @Attribute var variety: String
    @Relationship(inverse: "crops") var bed: Bed?
}
// PortingFromCoreData example 8 end

// PortingFromCoreData example 9 begin
func openTypedGarden(model modelURL: URL, store storeURL: URL) throws -> PersistentContainer {
    let model = try ManagedObjectModel(contentsOf: modelURL, classes: [Bed.self, Crop.self])
    return try PersistentContainer(model: model, storeDescription: .binaryFile(storeURL))
}

func sow(_ variety: String, inBedNamed name: String, context: ManagedContext) throws -> Crop {
    let beds = try context.fetch(Bed.fetchRequest()).filter { $0.name == name }
    let crop = Crop(context: context)
    crop.variety = variety
    crop.sownAt = Date()
    crop.bed = beds.first
    try context.save()
    return crop
}
// PortingFromCoreData example 9 end

// PortingFromCoreData example 10 begin
func gardenVersionNames(_ modelURL: URL) throws -> [String] {
    try ManagedObjectModel.versions(contentsOf: modelURL).map(\.name)  // ["Garden", "Garden 2"]
}
// PortingFromCoreData example 10 end
