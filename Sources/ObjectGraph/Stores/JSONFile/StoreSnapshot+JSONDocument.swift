extension StoreSnapshot {
    /// The snapshot as the JSON store writes it: stable order, byte-identical for equal data, so
    /// it serves as a golden file.
    public func jsonDocument(prettyPrinted: Bool = true) -> String {
        String(decoding: JSONStoreDocument.encode(self, pretty: prettyPrinted), as: UTF8.self)
    }
}
