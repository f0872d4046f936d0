// What the update cycle's walk keeps (TraitWorld+UpdateCycle.swift): its
// frames on an explicit stack (deep trees do not overflow the thread's
// stack), and the sets of traits that changed, shared between siblings.

/// An environment being visited and its children, taken after its own work
/// (``TraitWorld/visit(_:_:)``). A plain view keeps its subviews array as it
/// was then (no copy, no list to build: this runs for most environments of a
/// big tree) and checks each candidate's parent when it reaches it; other
/// kinds list their trait children. The frame holds that array, so its
/// elements are read without reference counting; `env` and `changeRef` are
/// held by `owner` and `change`, or, for a subview entered on the fast
/// path, by the frames below (the subviews array that listed it, and the
/// frame whose change it took).
struct VisitFrame {
    let subviews: [View]?
    let children: [TraitEnvironment]?
    let owner: TraitEnvironment?
    /// What changed `env`'s collection in this traversal, if it changed.
    let change: Diff?
    let env: Unmanaged<TraitEnvironment>
    let changeRef: Unmanaged<Diff>?
    let elements: UnsafeRawPointer?
    let count: Int
    var next = 0
    /// The last subview the fast path tried here was not plain.
    var plainFailed = false

    init(owner: TraitEnvironment, subviews: [View], change: Diff?) {
        self.init(env: Unmanaged.passUnretained(owner), owner: owner, subviews: subviews, children: nil,
                  change: change, changeRef: change.map { Unmanaged.passUnretained($0) })
    }

    init(owner: TraitEnvironment, children: [TraitEnvironment], change: Diff?) {
        self.init(env: Unmanaged.passUnretained(owner), owner: owner, subviews: nil, children: children,
                  change: change, changeRef: change.map { Unmanaged.passUnretained($0) })
    }

    init(plainView: Unmanaged<View>, subviews: [View], changeRef: Unmanaged<Diff>) {
        self.init(env: Unmanaged<TraitEnvironment>.fromOpaque(plainView.toOpaque()), owner: nil,
                  subviews: subviews, children: nil, change: nil, changeRef: changeRef)
    }

    private init(env: Unmanaged<TraitEnvironment>, owner: TraitEnvironment?, subviews: [View]?,
                 children: [TraitEnvironment]?, change: Diff?, changeRef: Unmanaged<Diff>?) {
        self.env = env
        self.owner = owner
        self.subviews = subviews
        self.children = children
        self.change = change
        self.changeRef = changeRef
        if let subviews {
            elements = subviews.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
            count = subviews.count
        } else if let children {
            elements = children.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
            count = children.count
        } else {
            elements = nil
            count = 0
        }
    }

    /// Subview `i` of a view's frame, unretained (the frame holds the array,
    /// and an array held here is never written: a view's edits copy it).
    @inline(__always) func subview(at i: Int) -> Unmanaged<View> {
        elements.unsafelyUnwrapped.load(fromByteOffset: i &* MemoryLayout<Unmanaged<View>>.stride,
                                        as: Unmanaged<View>.self)
    }

    /// Marks the subviews of a plain view's frame for a trait update, as
    /// `updateOwnTraits` marks a changed view's trait children.
    @inline(__always) func markPlainSubviewsForTraits() {
        env._withUnsafeGuaranteedRef { parent in
            for i in 0..<count {
                subview(at: i)._withUnsafeGuaranteedRef { TraitWorld.markForTraits($0, subviewOf: parent) }
            }
        }
    }

    /// The child at `i`, unretained (alive until the next call out of the
    /// engine: a controller is held by its parent, not by this frame); nil
    /// when that candidate inherits from elsewhere now.
    @inline(__always) func child(at i: Int) -> Unmanaged<TraitEnvironment>? {
        let element = elements.unsafelyUnwrapped.load(fromByteOffset: i &* MemoryLayout<Unmanaged<TraitEnvironment>>.stride,
                                                      as: Unmanaged<TraitEnvironment>.self)
        if subviews == nil { return element }
        return env._withUnsafeGuaranteedRef { parent in
            Unmanaged<View>.fromOpaque(element.toOpaque())._withUnsafeGuaranteedRef { s in
                if s.hasOwningViewController {
                    return unsafeDowncast(parent, to: View.self).traitChild(for: s).map { Unmanaged.passUnretained($0) }
                }
                return s.isSubview(ofOpaque: env.toOpaque()) ? element : nil
            }
        }
    }
}

/// The frames of one traversal, in memory of its own: frames are built in
/// place and dropped in place (an array of them copied each one on the way
/// in and out, a third of a root change's instructions).
struct VisitStack {
    private var base: UnsafeMutablePointer<VisitFrame>
    private var capacity = 32
    private(set) var count = 0

    init() { base = .allocate(capacity: capacity) }

    var top: UnsafeMutablePointer<VisitFrame> { base + (count - 1) }

    @inline(__always) mutating func push(_ frame: consuming VisitFrame) {
        if count == capacity { grow() }
        (base + count).initialize(to: frame)
        count += 1
    }

    @inline(never) private mutating func grow() {
        let bigger = UnsafeMutablePointer<VisitFrame>.allocate(capacity: capacity * 2)
        bigger.moveInitialize(from: base, count: count)
        base.deallocate()
        base = bigger
        capacity *= 2
    }

    @inline(__always) mutating func pop() {
        count -= 1
        _ = (base + count).move()
    }

    /// The environments of the frames, outermost first.
    var environments: [TraitEnvironment] { (0..<count).map { base[$0].env.takeUnretainedValue() } }

    /// Drops the frames left and the memory.
    mutating func deallocate() {
        base.deinitialize(count: count)
        base.deallocate()
        count = 0
    }
}

/// The traits that differ between two collections, remembered for the few
/// pairs seen most recently: siblings sharing their parent's collection see the
/// same pair, so the diff is computed once per distinct change.
/// (A class: each environment an update reaches gets one, and a reference is
/// one retain where a struct of two arrays was two.) It holds both collections,
/// so an environment taking its parent's change as it is can compare
/// identities with them safely while the diff lives.
final class Diff {
    let old: TraitCollection
    let new: TraitCollection
    let ids: [Int]
    let definitions: [TraitDefinition]
    let affectsColor: Bool

    init(old: TraitCollection, new: TraitCollection) {
        self.old = old
        self.new = new
        let defs = new.changedTraits(from: old)
        self.definitions = defs
        self.ids = defs.map(\.id)
        self.affectsColor = defs.contains { $0.affectsColorAppearance }
    }
}

struct DiffCache {
    // Each diff holds its pair, so identities cannot be reused while cached.
    private var slots: [Diff] = []
    private var next = 0
    /// The slot that answered last: siblings ask for the same pair in a row.
    private var last = 0

    mutating func diff(_ old: TraitCollection, _ new: TraitCollection) -> Diff {
        if last < slots.count, slots[last].old === old, slots[last].new === new { return slots[last] }
        for i in slots.indices where slots[i].old === old && slots[i].new === new {
            last = i
            return slots[i]
        }
        let d = Diff(old: old, new: new)
        if slots.count < 4 {
            last = slots.count
            slots.append(d)
        } else {
            last = next
            slots[next] = d
            next = (next + 1) % 4
        }
        return d
    }
}
