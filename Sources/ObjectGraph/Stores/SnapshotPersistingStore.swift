/// A store that persists a save by keeping its change set's ``StoreChangeSet/snapshot`` (or
/// nothing) and reads none of its records: the coordinator hands it a change set whose
/// ``StoreChangeSet/inserted`` and ``StoreChangeSet/updated`` are empty, so that a save does not
/// copy a record of every changed object for nobody to read (issue 24: peak memory of a save).
protocol SnapshotPersistingStore: PersistentStore {}
