/// Gives every `ManagedObject` subclass a typed `fetchRequest()`.
public protocol FetchableObject: ManagedObject {}

extension FetchableObject {
    /// A request for every object of this class's entity.
    ///
    /// Core Data: the generated `Entity.fetchRequest()`.
    public static func fetchRequest() -> FetchRequest<Self> { FetchRequest<Self>() }
}
