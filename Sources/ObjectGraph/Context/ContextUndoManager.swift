/// An undo and redo stack for one context: records attribute and relationship changes (inverse
/// updates included), inserts and deletes (delete rules and cascades included), in groups.
///
/// Assign one to ``ManagedContext/undoManager`` to turn undo on (it is off by default and then
/// costs nothing). Changes are grouped per user event: with ``groupsByEvent`` (the default),
/// the changes made until the next ``ManagedContext/processPendingChanges()``, ``ManagedContext/save()``,
/// or ``undo()`` form one group; ``beginUndoGrouping()`` and ``endUndoGrouping()`` make explicit
/// groups (nested groups join the outermost one). ``undo()`` reverts the last group, ``redo()``
/// applies it again; a new change clears the redo stack. Undoing after a save makes the context
/// dirty again, so the next save persists the undone state. ``ManagedContext/rollback()`` and
/// ``ManagedContext/reset()`` clear both stacks. Merges of other contexts' saves and refreshes are
/// not recorded; a child context's save into this context is (one change per property).
///
/// For example:
/// ```swift
/// context.undoManager = ContextUndoManager()
/// apple.price = 150
/// context.processPendingChanges()  // ends the group
/// context.undoManager?.undo()  // apple.price is back to its previous value
/// ```
///
/// Not `Sendable`: use it in its context's isolation domain.
///
/// Core Data: `UndoManager` as `NSManagedObjectContext.undoManager`.
public final class ContextUndoManager {
    /// One recorded change; undoing it applies its inverse.
    enum Action {
        /// A property's value changed from `old` to `new`.
        case value(ManagedObject, slot: Int, old: StoreValue, new: StoreValue)
        /// The object came into existence (inserted, or brought back by an undo).
        case insert(ManagedObject)
        /// The object went away (deleted, or removed by an undo).
        case delete(ManagedObject)

        var inverse: Action {
            switch self {
            case .value(let object, let slot, let old, let new): .value(object, slot: slot, old: new, new: old)
            case .insert(let object): .delete(object)
            case .delete(let object): .insert(object)
            }
        }
    }

    /// The context whose changes this manager records; set by ``ManagedContext/undoManager``.
    weak var context: ManagedContext?
    private var undoStack: [[Action]] = []
    private var redoStack: [[Action]] = []
    /// The group being recorded: an explicit one (`explicitLevel > 0`) or the event group.
    private var openGroup: [Action] = []
    private var explicitLevel = 0
    /// Whether an undo or redo is applying actions, so that they are not recorded as changes.
    private var isApplying = false

    /// Whether changes outside explicit groups are grouped per user event (until the next
    /// `processPendingChanges()`, save or undo); when `false`, each change is its own group.
    ///
    /// Core Data: `UndoManager.groupsByEvent`.
    public var groupsByEvent = true

    /// The most groups kept; the oldest is dropped beyond it. `0` (the default) keeps all.
    ///
    /// Core Data: `UndoManager.levelsOfUndo`.
    public var levelsOfUndo = 0

    /// Creates an empty undo manager; assign it to a context's ``ManagedContext/undoManager``.
    public init() {}

    /// Whether there is a group to undo, counting the changes of the open event group.
    ///
    /// Core Data: `UndoManager.canUndo`.
    public var canUndo: Bool { !undoStack.isEmpty || (explicitLevel == 0 && !openGroup.isEmpty) }

    /// Whether there is an undone group to redo.
    ///
    /// Core Data: `UndoManager.canRedo`.
    public var canRedo: Bool { !redoStack.isEmpty }

    /// Whether an undo or redo is running (changes made now are not recorded).
    ///
    /// Core Data: `UndoManager.isUndoing` and `isRedoing`.
    public var isUndoingOrRedoing: Bool { isApplying }

    /// Opens a group: every change until the matching ``endUndoGrouping()`` is undone together.
    /// Closes the open event group first. Groups nest; the outermost one is what ``undo()`` reverts.
    ///
    /// Core Data: `UndoManager.beginUndoGrouping()`.
    public func beginUndoGrouping() {
        if explicitLevel == 0 { endEventGroup() }
        explicitLevel += 1
    }

    /// Closes the group opened by the last ``beginUndoGrouping()``; without one open it is a
    /// programmer error that stops the program (Foundation's `UndoManager` raises).
    ///
    /// Core Data: `UndoManager.endUndoGrouping()`.
    public func endUndoGrouping() {
        precondition(explicitLevel > 0, "endUndoGrouping() without a matching beginUndoGrouping().")
        explicitLevel -= 1
        if explicitLevel == 0 { pushOpenGroup() }
    }

    /// Reverts the last group of changes (closing the open event group first) and makes it
    /// redoable. Does nothing when there is nothing to undo, or inside an explicit group.
    ///
    /// Core Data: `UndoManager.undo()`.
    public func undo() {
        guard explicitLevel == 0 else { return }
        endEventGroup()
        guard let group = undoStack.popLast() else { return }
        redoStack.append(apply(group))
    }

    /// Applies the last undone group again. Does nothing when there is nothing to redo.
    ///
    /// Core Data: `UndoManager.redo()`.
    public func redo() {
        guard explicitLevel == 0 else { return }
        endEventGroup()
        guard let group = redoStack.popLast() else { return }
        undoStack.append(apply(group))
        trim()
    }

    /// Forgets every recorded change: nothing can be undone or redone afterwards.
    ///
    /// Core Data: `UndoManager.removeAllActions()`.
    public func removeAllActions() {
        undoStack.removeAll()
        redoStack.removeAll()
        openGroup.removeAll()
    }

    // MARK: - Recording (called by the context)

    func recordChange(of object: ManagedObject, at slot: Int, from old: StoreValue, to new: StoreValue) {
        record(.value(object, slot: slot, old: old, new: new))
    }

    func recordInsert(_ object: ManagedObject) { record(.insert(object)) }

    func recordDelete(_ object: ManagedObject) { record(.delete(object)) }

    private func record(_ action: Action) {
        guard !isApplying else { return }
        redoStack.removeAll()
        openGroup.append(action)
        if explicitLevel == 0 && !groupsByEvent { pushOpenGroup() }
    }

    /// Closes the event group, if one is open (no explicit group is).
    func endEventGroup() {
        guard explicitLevel == 0 else { return }
        pushOpenGroup()
    }

    private func pushOpenGroup() {
        guard !openGroup.isEmpty else { return }
        undoStack.append(openGroup)
        openGroup = []
        trim()
    }

    private func trim() {
        if levelsOfUndo > 0 && undoStack.count > levelsOfUndo {
            undoStack.removeFirst(undoStack.count - levelsOfUndo)
        }
    }

    /// Applies the inverses of `group` in reverse order; returns the group that undoes that.
    private func apply(_ group: [Action]) -> [Action] {
        guard let context else { return [] }
        isApplying = true
        defer { isApplying = false }
        var applied: [Action] = []
        applied.reserveCapacity(group.count)
        for action in group.reversed() {
            let inverse = action.inverse
            context.applyUndoAction(inverse)
            applied.append(inverse)
        }
        context.didProcessChanges()
        return applied
    }
}
