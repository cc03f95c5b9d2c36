extension StoreCoordinator {
    /// The smallest and largest number of keys reserved at once from a shared store.
    static let keyBlockSizes: (first: Int64, shift: Int) = (64, 10)

    /// Reserves the next block of keys of an entity from a store that other processes share,
    /// so that no two processes hand out the same key: 64 keys, then twice as many each time,
    /// up to 65,536. Runs under the `state` lock, once per block (one short write transaction).
    /// If the store cannot reserve (it is locked or failing), keys are allocated locally from
    /// then on; a clash with another process then fails that save with `.conflict`.
    func reserveKeyBlock(entityIndex: Int, in state: inout State) {
        guard let shared = store as? any ExternallyChangedStore else {
            state.keyLimits[entityIndex] = .max
            return
        }
        let count = Self.keyBlockSizes.first << min(state.keyReservations[entityIndex], Self.keyBlockSizes.shift)
        state.keyReservations[entityIndex] += 1
        do {
            let start = try shared.reserveKeys(ofEntity: model.infos[entityIndex].name, count: count)
            let next = max(start, state.nextKeys[entityIndex])
            state.nextKeys[entityIndex] = next
            state.keyLimits[entityIndex] = next + count
        } catch {
            state.keyLimits[entityIndex] = .max
        }
    }
}
