// Trait change registrations: registerForTraitChanges with a closure, a
// target-action or the host's delegate, and what each delivers.

extension TraitEnvironment {
    // MARK: Registrations

    /// Registers `handler` to run when any of `traits` changes value for this
    /// environment (`registerForTraitChanges`). The handler gets the environment
    /// and the previous collection.
    @discardableResult
    public func registerForTraitChanges(_ traits: [TraitDefinition],
                                        handler: @escaping (TraitEnvironment, TraitCollection) throws -> Void) throws -> TraitChangeRegistration {
        try addTraitChangeRegistration(for: traits) { env, prev in try handler(env, prev); return true }
    }

    /// Registers a built-in action such as ``View/setNeedsLayout()`` (target-action with self as target).
    @discardableResult
    public func registerForTraitChanges(_ traits: [TraitDefinition], action: BuiltinAction) throws -> TraitChangeRegistration {
        try addTraitChangeRegistration(for: traits) { env, _ in try env.perform(action); return true }
    }

    /// The general form hosts build on: the delivery returns false when its
    /// target is gone, which ends the registration.
    @discardableResult
    public func addTraitChangeRegistration(for traits: [TraitDefinition],
                                           delivery: @escaping (TraitEnvironment, TraitCollection) throws -> Bool) throws -> TraitChangeRegistration {
        try add(ClosureRegistration(traits: traits, delivery: delivery))
    }

    /// A registration the world's delegate delivers
    /// (``TraitWorldDelegate/environment(_:deliver:previous:)``), told which
    /// one by `tag`: a host keeps its handlers itself, and each registration
    /// then costs no closure of its own (48 bytes less per registration than
    /// ``addTraitChangeRegistration(for:delivery:)``).
    @discardableResult
    public func addTraitChangeRegistration(for traits: [TraitDefinition], delegateTag tag: Int) throws -> TraitChangeRegistration {
        try add(DelegateRegistration(traits: traits, tag: tag))
    }

    private func add(_ r: TraitChangeRegistration) throws -> TraitChangeRegistration {
        guard !r.traits.isEmpty else { throw TraitError("Must pass one or more traits to register for") }
        if extraStorage == nil {
            extraStorage = .registration(r)   // most registered views: the registration alone, no extras
        } else {
            let x = makeExtras()
            switch x.registrationList {
            case nil:
                x.registrationList = .one(r)
            case .one(let first):
                x.registrationList = .many([first, r])
            case .many(var all):
                x.registrationList = nil   // `all` is then the array's only reference: appended in place
                all.append(r)
                x.registrationList = .many(all)
            }
        }
        flags.insert(.hasRegistrations)
        return r
    }

    /// Ends a registration; unregistering twice, or a token of another
    /// environment, does nothing. Returns whether the registration was this
    /// environment's and active.
    @discardableResult
    public func unregisterForTraitChanges(_ registration: TraitChangeRegistration) -> Bool {
        guard hasRegistrations, let list = registrationList else { return false }
        switch list {
        case .one(let r):
            guard r === registration else { return false }
            if let x = extras { x.registrationList = nil } else { extraStorage = nil }
            flags.remove(.hasRegistrations)
            releaseEmptyExtras()
        case .many(var all):
            let x = extras.unsafelyUnwrapped   // (several registrations are always in the extras)
            guard let i = all.firstIndex(where: { $0 === registration }) else { return false }
            x.registrationList = nil
            all.remove(at: i)
            x.registrationList = all.count == 1 ? .one(all[0]) : .many(all)
            if all.count == 1 { releaseEmptyExtras() }
        }
        registration.isActive = false
        return true
    }

    /// How many registrations this environment has that have not ended.
    public var activeRegistrationCount: Int { registrationList?.count ?? 0 }

    /// Built-in zero-argument actions that target-action registrations can name.
    public enum BuiltinAction: String, CaseIterable, Sendable {
        /// ``View/setNeedsLayout()``.
        case setNeedsLayout
        /// ``View/setNeedsDisplay()``.
        case setNeedsDisplay
        /// ``View/layoutIfNeeded()``.
        case layoutIfNeeded
        /// `setNeedsUpdateProperties()` of a view or view controller.
        case setNeedsUpdateProperties
        /// ``TraitEnvironment/updateTraitsIfNeeded()``.
        case updateTraitsIfNeeded
    }
}

/// A registration made with `registerForTraitChanges`; use it to unregister.
///
/// What it calls is its subclass's: a closure (`ClosureRegistration`) or
/// the world's delegate with a tag (`DelegateRegistration`). The base is
/// 25 bytes, so a subclass with one word more is a 48-byte chunk.
public class TraitChangeRegistration {
    /// Most registrations name one trait, kept without an array (a 48-byte
    /// chunk per registration); either case is one pointer.
    private enum Traits {
        case one(TraitDefinition)
        case many([TraitDefinition])
    }
    private let registered: Traits
    /// Whether the registration still delivers changes: false once it was
    /// unregistered, or its delivery said its target is gone.
    @exclusivity(unchecked) public internal(set) var isActive = true

    init(traits: [TraitDefinition]) {
        var seen = Set<Int>()
        let unique = traits.filter { seen.insert($0.id).inserted }
        self.registered = unique.count == 1 ? .one(unique[0]) : .many(unique)
    }

    /// The tag of a registration the world's delegate delivers; nil otherwise.
    public var delegateTag: Int? { nil }

    /// Calls what was registered (`world` is `env`'s); false ends the registration.
    func deliver(_ env: TraitEnvironment, _ previous: TraitCollection, in world: TraitWorld) throws -> Bool { true }

    /// The registered traits, each once, in the order given.
    var traits: [TraitDefinition] {
        switch registered {
        case .one(let d): return [d]
        case .many(let all): return all
        }
    }

    /// Whether one of the registered traits is in `changedIDs` (sorted).
    /// (The ids are read from the definitions: a sorted copy of them was a
    /// 48-byte chunk per registration.)
    func matches(_ changedIDs: [Int]) -> Bool {
        changedIDs.withUnsafeBufferPointer { ids in
            switch registered {
            case .one(let d): return TraitChangeRegistration.contains(ids, d.id)
            case .many(let all):
                for d in all where TraitChangeRegistration.contains(ids, d.id) { return true }
                return false
            }
        }
    }

    /// Whether the sorted `ids` contain `id` (binary search: a change may list every system trait).
    @inline(__always)
    private static func contains(_ ids: UnsafeBufferPointer<Int>, _ id: Int) -> Bool {
        var lo = 0, hi = ids.count
        while lo < hi {
            let mid = (lo &+ hi) >> 1
            if ids[mid] < id { lo = mid &+ 1 } else { hi = mid }
        }
        return lo < ids.count && ids[lo] == id
    }
}

/// A registration that calls a closure.
final class ClosureRegistration: TraitChangeRegistration {
    let delivery: (TraitEnvironment, TraitCollection) throws -> Bool

    init(traits: [TraitDefinition], delivery: @escaping (TraitEnvironment, TraitCollection) throws -> Bool) {
        self.delivery = delivery
        super.init(traits: traits)
    }

    override func deliver(_ env: TraitEnvironment, _ previous: TraitCollection, in world: TraitWorld) throws -> Bool {
        try delivery(env, previous)
    }
}

/// A registration the world's delegate delivers, told which by its tag.
final class DelegateRegistration: TraitChangeRegistration {
    let tag: Int

    init(traits: [TraitDefinition], tag: Int) {
        self.tag = tag
        super.init(traits: traits)
    }

    override var delegateTag: Int? { tag }

    override func deliver(_ env: TraitEnvironment, _ previous: TraitCollection, in world: TraitWorld) throws -> Bool {
        try world.activeDelegate?.environment(env, deliver: tag, previous: previous) ?? false
    }
}
