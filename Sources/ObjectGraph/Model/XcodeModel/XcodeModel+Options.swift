extension XcodeModel {
    /// How an Xcode model is imported.
    ///
    /// For example:
    /// ```swift
    /// var options = XcodeModel.Options()
    /// options.skipsUnsupportedProperties = true  // fetched properties: listed, not refused
    /// let version = try XcodeModel(contentsOf: url, options: options)
    /// ```
    public struct Options: Sendable, Hashable {
        /// Whether properties the model has no concept for (fetched properties, derived and
        /// composite attributes) are left out and listed in ``XcodeModel/notes`` (and fetched
        /// properties in ``XcodeModel/Entity/fetchedProperties``) instead of refused with an
        /// `unsupportedFormat` error. Default: refuse, so that none is lost unnoticed.
        public var skipsUnsupportedProperties: Bool

        /// Options; with no arguments, the defaults.
        public init(skipsUnsupportedProperties: Bool = false) {
            self.skipsUnsupportedProperties = skipsUnsupportedProperties
        }
    }
}
