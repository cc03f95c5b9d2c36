/// A managed object's state, one bit each (one byte in all, so that objects stay small):
/// `ManagedObject.Flags`.
struct ManagedObjectFlags: Equatable {
    private var bits: UInt8 = 0

    init(isInserted: Bool = false) {
        self.isInserted = isInserted
    }

    var isInserted: Bool {
        get { bits & 1 != 0 }
        set { set(1, newValue) }
    }
    var isDeleted: Bool {
        get { bits & 2 != 0 }
        set { set(2, newValue) }
    }
    /// The object was looked up by an ID that no longer exists in the store.
    var isMissing: Bool {
        get { bits & 4 != 0 }
        set { set(4, newValue) }
    }
    /// The object is in its context's set of touched objects.
    var isTouched: Bool {
        get { bits & 8 != 0 }
        set { set(8, newValue) }
    }
    /// A save already checked the object's properties and is running its validation
    /// methods, so that their default implementations do not check them again.
    var isInValidationHook: Bool {
        get { bits & 16 != 0 }
        set { set(16, newValue) }
    }

    private mutating func set(_ bit: UInt8, _ value: Bool) {
        bits = value ? bits | bit : bits & ~bit
    }
}
