/// A property wrapper that describes a model property.
protocol DerivableProperty: SlotCachingWrapper {
    /// The property's Swift type.
    var valueType: Any.Type { get }
    /// `value` if the property can read it, else a value it can read (for probing key paths);
    /// `nil` if there is none.
    func readableValue(from value: StoreValue) -> StoreValue?
}
