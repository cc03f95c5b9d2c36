import Foundation

extension CompiledPath {
    /// The value at the end of a path of to-one hops; null if a hop is empty or missing.
    func scalar(from values: [StoreValue], resolver: PredicateResolver) -> StoreValue {
        var current = values
        for hop in hops {
            guard case .object(let id) = current[hop.slot], let next = resolver.resolve(id) else { return .null }
            current = next
        }
        return current[last]
    }

    /// Every value at the end of the path, through to-many hops; objects that no longer exist
    /// are left out.
    func collect(
        from values: [StoreValue], hop: Int, resolver: PredicateResolver, into result: inout [StoreValue]
    ) {
        guard hop < hops.count else {
            let value = values[last]
            guard lastIsToMany else {
                result.append(value)
                return
            }
            if case .objects(let ids) = value {
                for id in ids where resolver.resolve(id) != nil { result.append(.object(id)) }
            }
            return
        }
        switch values[hops[hop].slot] {
        case .object(let id):
            if let next = resolver.resolve(id) { collect(from: next, hop: hop + 1, resolver: resolver, into: &result) }
        case .objects(let ids):
            for id in ids {
                if let next = resolver.resolve(id) {
                    collect(from: next, hop: hop + 1, resolver: resolver, into: &result)
                }
            }
        default: break
        }
    }
}
