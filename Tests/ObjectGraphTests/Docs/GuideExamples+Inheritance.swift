import Foundation
import ObjectGraph

// Regions of Docs/Inheritance.md.

// Inheritance example 1 begin
class Shape: ManagedObject {
    // Class properties are inherited: answer for Shape itself only.
    override class var isAbstractEntity: Bool { self == Shape.self }
    @Attribute var name = ""
    @Attribute var area = 0.0
    @Relationship(inverse: "shapes") var canvas: Canvas?
}

final class Circle: Shape {
    @Attribute var radius = 0.0
}

final class Square: Shape {
    @Attribute var side = 0.0
}

final class Canvas: ManagedObject {
    @Attribute var title = ""
    @Relationship(inverse: "canvas", deleteRule: .cascade) var shapes: Set<Shape>
}

func makeShapesModel() throws -> ManagedObjectModel {
    // Circle's superclass Shape is in the model, so Circle's entity inherits from Shape's.
    try ManagedObjectModel(Shape.self, Circle.self, Square.self, Canvas.self)
}
// Inheritance example 1 end

// Inheritance example 2 begin
/// The canvas's shapes of at least `minimumArea`, largest first, circles and squares alike.
func largeShapes(on canvas: Canvas, minimumArea: Double, in context: ManagedContext) throws -> [Shape] {
    let request = FetchRequest<Shape>(
        predicate: try FetchPredicate(format: "canvas == %@ AND area >= %@", canvas, minimumArea),
        sortDescriptors: [SortDescriptor(key: "area", ascending: false)])
    return try context.fetch(request)
}

/// Only the circles' count: `includesSubentities` is irrelevant for a leaf entity, and `false`
/// keeps a parent's fetch to the parent's own objects.
func circleCount(in context: ManagedContext) throws -> Int {
    try context.count(for: FetchRequest<Circle>())
}
// Inheritance example 2 end

// Inheritance example 3 begin
/// A hierarchy described by hand, as an imported Core Data model has it: each entity lists only
/// its own properties and names its superentity.
func makeDocumentModel() throws -> ManagedObjectModel {
    var item = EntityDescription(
        name: "Item", attributes: [AttributeDescription(name: "title", type: .string, defaultValue: "")])
    item.isAbstract = true
    var note = EntityDescription(
        name: "Note", attributes: [AttributeDescription(name: "text", type: .string, isOptional: true)])
    note.superentityName = "Item"
    let model = try ManagedObjectModel(entities: [item, note])
    // The model's description of Note has the inherited attribute first.
    assert(model.entity(named: "Note")?.attributes.map(\.name) == ["title", "text"])
    return model
}
// Inheritance example 3 end
