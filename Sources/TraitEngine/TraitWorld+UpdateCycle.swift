// The update cycle of TraitWorld (see TraitWorld.swift for the world's
// state): what `update()` does in order, the walk that brings trait
// collections up to date, and the frames and change sets that walk keeps.

extension TraitWorld {
    // MARK: - The update cycle

    /// Applies everything pending, top-down, repeating until nothing is pending:
    /// traits (with change callbacks), appearance, then properties, layout and display.
    ///
    /// This is the turn of the run loop in which UIKit applies what changed: a
    /// program calls it where an app would return to the run loop.
    /// - Throws: The first error a callback throws (what was not done stays
    ///   pending for the next update); a ``TraitError`` when called from a
    ///   callback of an update, or when callbacks keep making work for
    ///   ``maximumPasses`` passes.
    public func update() throws {
        if checksBeforeApplyingWork && !isUpdating { try checkBeforeApplyingWork() }
        guard hasPendingWork else { return }
        guard !isUpdating else { throw TraitError("ui.update() cannot be called from inside an update callback") }
        isUpdating = true
        defer { isUpdating = false }
        stats.updates += 1
        beginNumberedUpdate()
        stats.lastUpdateVisited = 0
        // A rotation or resize tells the controllers before any trait changes.
        try deliverNotedTransitions()
        var pass = 0
        while true {
            if pass > 0 {
                // What callbacks changed since (values a host compares) is work too.
                try checkBeforeApplyingWork()
                if !hasRemainingWork() {
                    // A transition's completions come once it settled; what they change is applied too.
                    guard try runTransitionCompletions() else { break }
                    try checkBeforeApplyingWork()
                    if !hasRemainingWork() { break }
                }
            }
            if pass == maximumPasses {
                throw TraitError("update did not settle after \(maximumPasses) passes: callbacks keep changing traits or requesting work")
            }
            pass += 1
            stats.passes += 1
            hasPendingWork = false
            trace(.updateBegan(pass: pass))
            try runPass()
            try runTransitionAnimations()
        }
        hasPendingWork = false
    }

    /// Whether a pass would find work: marks reach the screens of connected
    /// scenes (work marked outside any scene waits until it joins one).
    private func hasRemainingWork() -> Bool {
        if !pendingScreens.isEmpty || structureChanged || !didAppearQueue.isEmpty || !didDisappearQueue.isEmpty {
            return true
        }
        let marks: PendingWork = [.traits, .subtreeTraits, .properties, .subtreeProperties, .constraints,
                                  .subtreeConstraints, .layout, .subtreeLayout, .display, .subtreeDisplay]
        return connectedScenes.contains { !$0.screen.pending.isDisjoint(with: marks) }
    }

    private func rootScreens() -> [Screen] {
        var screens = pendingScreens
        pendingScreens.removeAll()
        for s in connectedScenes where !screens.contains(where: { $0 === s.screen }) { screens.append(s.screen) }
        return screens
    }

    private func runPass() throws {
        reparentPresentations()
        let screens = rootScreens()
        if structureChanged {
            structureChanged = false
            try handleDisappearances()
        }
        for s in screens where !s.pending.isDisjoint(with: VisitMode.full.needs) {
            try visit(s, .full)
        }
        for s in screens { try visitRender(s, .display, .subtreeDisplay) }
        try flushAppearanceQueues()
    }

    /// What one traversal does: the update's full traversal (traits, then
    /// properties and layout, environment by environment), traits only
    /// (`updateTraitsIfNeeded`), or properties and layout only (a view laid
    /// out outside any window, whose traits never update).
    struct VisitMode {
        let traits: Bool
        let render: Bool
        /// The marks that make an environment worth entering.
        let needs: PendingWork
        /// The subtree markers a visit consumes.
        let markers: PendingWork
        static let full = VisitMode(traits: true, render: true,
                                    needs: [.traits, .subtreeTraits, .properties, .subtreeProperties, .constraints,
                                            .subtreeConstraints, .layout, .subtreeLayout],
                                    markers: [.subtreeTraits, .subtreeProperties, .subtreeConstraints, .subtreeLayout])
        static let traitsOnly = VisitMode(traits: true, render: false, needs: [.traits, .subtreeTraits],
                                          markers: [.subtreeTraits])
        static let renderOnly = VisitMode(traits: false, render: true,
                                          needs: [.properties, .subtreeProperties, .constraints, .subtreeConstraints,
                                                  .layout, .subtreeLayout],
                                          markers: [.subtreeProperties, .subtreeConstraints, .subtreeLayout])
    }

    /// The single top-down traversal of the dirty part of the tree below
    /// `root` (docs/guide.md, "The update cycle"), with an explicit stack (trees can be far deeper
    /// than the thread's stack allows). Each environment, when entered:
    /// updates its collection and delivers its change callbacks; a controller's
    /// view then gives `viewIsAppearing` when its controller is appearing; then
    /// `updateProperties` and layout run if needed. Only then are its children
    /// listed and visited in order, each checked for pending work when reached,
    /// so what a callback marks on a child (an override, `setNeedsLayout`) is
    /// seen by that child in this same traversal.
    func visit(_ root: TraitEnvironment, _ mode: VisitMode) throws {
        let needs = mode.needs, markers = mode.markers
        /// A callback failed: keep every environment whose processing was cut
        /// short reachable (recomputing an up-to-date collection is a no-op) so
        /// the next update finishes the work, including an interrupted appearance.
        func keepPending(_ envs: [TraitEnvironment]) {
            // (It failed between an environment's traits and its layout.)
            propertiesComeNext = nil
            layoutComesNext = nil
            constraintsComeNext = nil
            for e in envs {
                if mode.traits { e.pending.insert(.traits) }
                e.pending.formUnion(markers)
            }
            hasPendingWork = true
        }
        /// Does `e`'s own work and returns its frame; nil when nothing below it
        /// is left to do (most environments of a big tree are leaves).
        func enter(_ e: TraitEnvironment, from parent: TraitEnvironment?, parentChange: Diff?) throws -> VisitFrame? {
            stats.environmentsVisited += 1
            if mode.render { comesNext(Unmanaged.passUnretained(e).toOpaque()) }
            var change: Diff?
            stats.lastUpdateVisited += 1
            if mode.traits && e.pending.contains(.traits) {
                e.pending.remove(.traits)
                if e.pending.contains(.forceSubtree) {
                    if let vc = e.asViewController, vc.appearance == .disappeared, vc.isViewInWindow {
                        if mode.render {
                            vc.appearance = .appearing
                            appeared.append(vc)
                            // Before its traits update: it still sees the old ones.
                            try vc.viewWillAppear()
                            e.pending.remove(.forceSubtree)
                        } else {
                            // updateTraitsIfNeeded: the update still runs its appearance.
                            e.pending.insert(.traits)
                            e.propagateUp(.subtreeTraits)
                        }
                    } else {
                        e.pending.remove(.forceSubtree)
                    }
                    forceChildren(of: e)
                }
                change = try updateOwnTraits(e, parent: parent, parentChange: parentChange)
                if e.flags.contains(.hasHostedContent) { try e.hostedContent?.hostTraitsDidUpdate() }
            }
            return try finishEntering(e, change: change, fastChange: nil)
        }
        /// The rest of `enter` after `e`'s traits: its appearance, properties
        /// and layout, then its frame. `fastChange`, for a view entered on the
        /// fast path (whose change was its parent's, held by the frames
        /// below, as the view is by its parent's frame), makes a frame that
        /// holds neither.
        func finishEntering(_ e: TraitEnvironment, change: Diff?, fastChange: Unmanaged<Diff>?) throws -> VisitFrame? {
            if mode.render {
                if e.isView, let vc = unsafeDowncast(e, to: View.self).owningViewController,
                   vc.appearance == .appearing, vc.viewIfLoaded === e, vc.isViewInWindow {
                    // Its superview has laid it out; it and its controller have their new traits.
                    vc.appearance = .appeared
                    didAppearQueue.append(vc)
                    try vc.viewIsAppearing()
                }
                propertiesComeNext = nil
                if e.pending.contains(.properties) {
                    e.pending.remove(.properties)
                    try perform(.properties, on: e)
                }
                constraintsComeNext = nil
                if e.pending.contains(.constraints) {
                    e.pending.remove(.constraints)
                    try perform(.constraints, on: e)
                }
                layoutComesNext = nil
                if e.pending.contains(.layout) {
                    e.pending.remove(.layout)
                    if e.isView {
                        try layout(unsafeDowncast(e, to: View.self))
                    } else if e.kind == .presentationController {
                        try layoutContainer(unsafeDowncast(e, to: PresentationController.self))
                    }
                }
            }
            if e.pending.isDisjoint(with: markers) { return nil }
            e.pending.subtract(markers)
            if e.kind == .view {
                // (A leaf's empty array is not copied.)
                if unsafeDowncast(e, to: View.self).subviews.isEmpty { return nil }
                let subviews = unsafeDowncast(e, to: View.self).subviews
                if let fastChange {
                    return VisitFrame(plainView: Unmanaged.passUnretained(unsafeDowncast(e, to: View.self)),
                                      subviews: subviews, changeRef: fastChange)
                }
                return VisitFrame(owner: e, subviews: subviews, change: change)
            }
            let children = e.traitChildren
            if children.isEmpty { return nil }
            return VisitFrame(owner: e, children: children, change: change)
        }
        // The environments being visited, the innermost last.
        var stack = VisitStack()
        defer { stack.deallocate() }
        do {
            guard let frame = try enter(root, from: nil, parentChange: nil) else { return }
            stack.push(frame)
        } catch {
            keepPending([root])
            throw error
        }
        // The fast path below counts what it does here, added to the stats
        // before anything can read them (a callback of the general path, or
        // the end of the traversal).
        var plainEntered = 0
        defer { countPlainEntered(plainEntered) }
        while stack.count > 0 {
            // Valid until the next push.
            let top = stack.top
            var i = top.pointee.next
            let count = top.pointee.count
            // The fast path's conditions on the frame (and on the world: it
            // traces nothing), checked again whenever the loop comes back to
            // it (a callback may have changed them). After a subview that was
            // not plain, the next one must look plain first: a frame of such
            // subviews does not set the fast path up for each of them.
            if mode.traits, tracer == nil, top.pointee.subviews != nil, let d = top.pointee.changeRef, i < count,
               !top.pointee.plainFailed || top.pointee.subview(at: i)._withUnsafeGuaranteedRef(TraitWorld.isFast) {
                // The change's collections, and whether the frame's view still
                // holds the new one and the change redraws nothing.
                let env = top.pointee.env
                let (applies, change) = d._withUnsafeGuaranteedRef { d in
                    (!d.affectsColor && env._withUnsafeGuaranteedRef { $0.traitCollection === d.new },
                     PlainChange(world: self, parent: env, old: d.old, new: d.new))
                }
                var descend = false
                // A registered subview whose callbacks come next.
                var registered: Unmanaged<View>?
                top.pointee.plainFailed = false
                while applies && i < count {
                    let s = top.pointee.subview(at: i)
                    let result = s._withUnsafeGuaranteedRef { enterPlainSubview($0, change) }
                    if result == .notPlain {
                        top.pointee.plainFailed = true
                        break
                    }
                    i &+= 1
                    plainEntered &+= 1
                    if result != .done {
                        top.pointee.next = i
                        descend = true
                        if result == .hasSubviews {
                            // Visited next, as `enter` would. The frame's subviews keep
                            // `s` alive, and this frame holds or shares `d`.
                            let frame = VisitFrame(plainView: s, subviews: s._withUnsafeGuaranteedRef { $0.subviews },
                                                   changeRef: d)
                            frame.markPlainSubviewsForTraits()
                            stack.push(frame)
                            break
                        }
                        registered = s
                        break
                    }
                }
                if let s = registered {
                    // Registered: its registrations run now, as `apply` runs
                    // them, then the rest of `enter`. The stats count it first
                    // (a callback may read them). A callback may change
                    // anything: the loop then comes back to the frame (or to
                    // `s`'s), checking its conditions again. The frame's
                    // subviews keep `s` alive, and this frame holds or shares `d`.
                    countPlainEntered(plainEntered)
                    plainEntered = 0
                    var entered: VisitFrame?
                    do {
                        try deliverRegistered(s, d, render: mode.render)
                        entered = try s._withUnsafeGuaranteedRef { try finishEntering($0, change: nil, fastChange: d) }
                    } catch {
                        keepPending([s.takeUnretainedValue()] + stack.environments.reversed())
                        throw error
                    }
                    if let frame = entered.take() { stack.push(frame) }
                }
                if descend { continue }
            }
            guard i < count else {
                stack.pop()
                continue
            }
            top.pointee.next = i + 1
            // Siblings with nothing to do are passed over without reference counting.
            guard let candidate = top.pointee.child(at: i),
                  candidate._withUnsafeGuaranteedRef({ !$0.pending.isDisjoint(with: needs) }) else { continue }
            let c = candidate.takeUnretainedValue()
            let parent = top.pointee.env.takeUnretainedValue()
            if plainEntered != 0 {
                countPlainEntered(plainEntered)
                plainEntered = 0
            }
            var entered: VisitFrame?
            do {
                entered = try enter(c, from: parent, parentChange: top.pointee.changeRef?.takeUnretainedValue())
            } catch {
                keepPending([c] + stack.environments.reversed())
                throw error
            }
            guard let frame = entered.take() else { continue }
            stack.push(frame)
        }
    }

    /// `e` is being entered by a traversal that runs its `updateProperties`
    /// and layout next (``propertiesComeNext``).
    @inline(__always) private func comesNext(_ address: UnsafeMutableRawPointer) {
        propertiesComeNext = address
        constraintsComeNext = address
        layoutComesNext = address
    }

    /// Adds `n` environments entered on the fast path to the stats.
    private func countPlainEntered(_ n: Int) {
        stats.environmentsVisited += n
        stats.lastUpdateVisited += n
        stats.traitUpdates += n
    }

    enum PlainSubviewResult { case notPlain, done, hasSubviews, registered }

    /// What the fast path needs of a change, without reference counting: the
    /// changed view and the collections (the change holds them), and the
    /// world's recording of recent changes (the general path alone adds to
    /// `replacedCollections`, so this holds while the fast path runs).
    struct PlainChange {
        let parent: UnsafeMutableRawPointer
        let old: Unmanaged<TraitCollection>
        let new: Unmanaged<TraitCollection>
        let recording: Bool
        let updateNumber: Int
        let oldIsRecorded: Bool

        @inline(__always)
        init(world: TraitWorld, parent: Unmanaged<TraitEnvironment>, old: TraitCollection, new: TraitCollection) {
            self.parent = parent.toOpaque()
            self.old = Unmanaged.passUnretained(old)
            self.new = Unmanaged.passUnretained(new)
            recording = world.recordsRecentChanges
            updateNumber = world.updateNumber
            oldIsRecorded = recording && world.replacedCollections.last === old
        }
    }

    /// What ``visit(_:_:)`` does for most environments of a changed tree, with
    /// no call out of the engine: `s`, a plain subview (``isFast(_:)``) of
    /// `change.parent` still holding `change.old`, the parent's previous
    /// collection, which a change this traversal made replaced by
    /// `change.new`, takes `change.new`, exactly as
    /// ``updateOwnTraits(_:parent:parentChange:)`` and `enter` would. The
    /// caller checked that the parent still holds the new collection and that
    /// the change redraws nothing, keeps the change (and so both collections)
    /// alive, counts `s` in the stats and marks its subviews. Returns
    /// `.notPlain`, with `s` unchanged, when `s` is not such a subview (the
    /// general path handles it), `.hasSubviews` when its subviews come next.
    ///
    /// A subview that would be plain but for its registrations
    /// takes its collection here too and gives `.registered`:
    /// the caller then runs the rest of `apply` (``deliverRegistered(_:_:render:)``)
    /// and of `enter`.
    @inline(__always)
    private func enterPlainSubview(_ s: View, _ change: PlainChange) -> PlainSubviewResult {
        // Read once: the release below is a call, after which the flags would be read again.
        let flags = s.flags
        guard TraitWorld.isFast(s, flags), s.isSubview(ofOpaque: change.parent),
              Unmanaged.passUnretained(s.traitCollection).toOpaque() == change.old.toOpaque()
        else { return .notPlain }
        if change.recording && s.changedInUpdate != change.updateNumber {
            if !flags.contains(.hasUpdatedTraits) {
                s.previousCollectionRef = nil
            } else {
                // The first environment to replace a collection records it (general path).
                guard change.oldIsRecorded else { return .notPlain }
                s.previousCollectionRef = change.old
            }
            s.changedInUpdate = change.updateNumber
        }
        s.flags = flags.union(.hasUpdatedTraits)
        // The change holds the previous collection: this release frees nothing.
        change.new._withUnsafeGuaranteedRef { s.traitCollection = $0 }
        // (The caller finishes it, ``deliverRegistered(_:_:render:)``.)
        if flags.contains(.hasRegistrations) { return .registered }
        // Its traits are done and its subtree is entered now: nothing stays
        // pending (the caller marks its subviews).
        s.pending = []
        return s.subviews.isEmpty ? .done : .hasSubviews
    }

    /// The rest of `apply` and `enter`'s traits step for `s`, which
    /// `enterPlainSubview` gave its collection and found registered: it is
    /// left as they leave an environment before its callbacks (its subtree
    /// marker set, its children marked), then its callbacks run, then its
    /// hosted content's update. The caller holds `s` and `d` (the change it
    /// took as it is) and counted `s` in the stats.
    @inline(never)
    private func deliverRegistered(_ s: Unmanaged<View>, _ d: Unmanaged<Diff>, render: Bool) throws {
        if render { comesNext(s.toOpaque()) }
        try s._withUnsafeGuaranteedRef { v in
            try d._withUnsafeGuaranteedRef { diff in
                v.pending = .subtreeTraits
                markChildrenForTraits(v)
                try deliverChange(v, diff.old, diff)
                if v.flags.contains(.hasHostedContent) { try v.hostedContent?.hostTraitsDidUpdate() }
            }
        }
    }

    /// What the fast path takes: a plain view (nothing pending but its
    /// traits, and nothing that the general path would call or check when
    /// its collection changes), or one that would be plain but for its
    /// registrations.
    @inline(__always) private static func isFast(_ s: View) -> Bool { isFast(s, s.flags) }

    /// The same, given `s`'s flags as read.
    @inline(__always) private static func isFast(_ s: View, _ flags: EnvironmentFlags) -> Bool {
        s.pending == .traits && s.kind == .view
            && flags.isDisjoint(with: EnvironmentFlags.notPlain.subtracting(.hasRegistrations))
            && s.hostCallbacks & TraitWorld.hostTraitBits == 0
    }

    /// The host callbacks that make an environment's trait change leave the fast path.
    @inline(__always) static var hostTraitBits: UInt16 {
        TraitEnvironment.hostCachesCollection | TraitEnvironment.hostTraitCollectionDidChange
    }

    /// Structure changed at `e`: revisit every child, and update the
    /// properties of, lay out and draw what (re)entered the window. (Apple,
    /// "Updating views automatically with observation tracking": properties
    /// such as a label's text are set in updateProperties, which "runs before
    /// layout"; a view shows them from its first display on.)
    private func forceChildren(of e: TraitEnvironment) {
        if let v = e.asView {
            v.setNeedsUpdateProperties()
            v.markNeedsUpdateConstraints()
            v.setNeedsLayout()
            v.setNeedsDisplay()
        } else if let vc = e.asViewController {
            vc.setNeedsUpdateProperties()
            vc.markNeedsUpdateConstraints()
        } else if let pc = e as? PresentationController {
            pc.setNeedsLayout()
        }
        e.forEachTraitChild { c in c.pending.formUnion([.traits, .forceSubtree]) }
        e.pending.insert(.subtreeTraits)
        // Render work marked while detached must be reachable from the root again.
        for (need, marker) in [(PendingWork.properties, PendingWork.subtreeProperties), (.constraints, .subtreeConstraints),
                               (.layout, .subtreeLayout), (.display, .subtreeDisplay)]
        where e.pending.contains(need) || e.pending.contains(marker) {
            e.propagateUp(marker)
        }
    }

    /// `e`'s collection from its parent's; `parent`, when given, is the trait
    /// parent the caller found `e` under (saving the lookup).
    func computeCollection(_ e: TraitEnvironment, parent: TraitEnvironment? = nil) throws -> TraitCollection {
        if e.kind == .screen { return unsafeDowncast(e, to: Screen.self).computeDeviceTraits() }
        if let parent { return try collection(of: e, under: parent) }
        guard let parent = e.traitParent else { return e.traitCollection }
        return try collection(of: e, under: parent)
    }

    /// With overrides, a new collection: asked for from ``memoryBudget``
    /// first, with its diff (an id per entry).
    @inline(__always)
    private func collection(of e: TraitEnvironment, under parent: TraitEnvironment) throws -> TraitCollection {
        if e.kind == .presentationController {
            return unsafeDowncast(e, to: PresentationController.self).collection(under: parent.traitCollection)
        }
        guard e.hasOverrides else { return parent.traitCollection }
        let base = parent.traitCollection, overrides = e.overrideEntries
        if memoryMeter.budget != nil {
            try memoryMeter.charge(96 + (base.entries.count + overrides.count)
                                   * (MemoryLayout<TraitCollection.Entry>.stride + MemoryLayout<Int>.stride))
        }
        return applyingContentSizeLimits(e, base.applying(overrides), base: base)
    }

    /// Recomputes one environment's collection and, when it changed, marks its
    /// children and delivers its callbacks. Its descendants are not updated yet.
    /// `parentChange`, when given, is what changed `parent` in this traversal:
    /// an environment without overrides still holding the parent's previous
    /// collection takes the parent's new one and its diff as they are (most
    /// environments of a changed tree: no merge, no diff lookup). Returns the
    /// diff when the collection changed, for the children.
    @discardableResult
    func updateOwnTraits(_ e: TraitEnvironment, parent: TraitEnvironment? = nil,
                         parentChange: Diff? = nil) throws -> Diff? {
        let first = !e.hasUpdatedTraits
        e.hasUpdatedTraits = true
        if let pc = parentChange, let parent, !e.hasOverrides, e.kind != .screen, e.kind != .presentationController,
           TraitWorld.same(e.traitCollection, pc.old), TraitWorld.same(parent.traitCollection, pc.new) {
            e.hasUpdatedTraits = true
            try apply(pc, to: e, first: first)
            return pc
        }
        let old = e.traitCollection
        // (A refusal of the memory it takes leaves `e` as it was.)
        let new = try computeCollection(e, parent: parent)
        e.hasUpdatedTraits = true
        if new === old { return nil }
        let diff = diffCache.diff(old, new)
        if diff.ids.isEmpty { return nil }
        try apply(diff, to: e, first: first)
        return diff
    }

    /// Whether `a` and `b` are one object, compared without reference counting.
    @inline(__always) static func same(_ a: TraitCollection, _ b: TraitCollection) -> Bool {
        Unmanaged.passUnretained(a).toOpaque() == Unmanaged.passUnretained(b).toOpaque()
    }

    /// `e`'s collection changed as `diff` says (`first`: it is the first
    /// collection an update gave it): stores it, marks its children, and
    /// delivers its callbacks.
    private func apply(_ diff: Diff, to e: TraitEnvironment, first: Bool) throws {
        // The diff holds both collections: `old` lives while it does.
        let old = diff.old
        e.traitCollection = diff.new
        if recordsRecentChanges && e.changedInUpdate != updateNumber {
            // An environment's first collection is no change to point out
            // (before it joined a scene it had only the prediction).
            if first {
                e.previousCollection = nil
            } else {
                if replacedCollections.last !== old { replacedCollections.append(old) }
                e.previousCollection = old
            }
            e.changedInUpdate = updateNumber
        }
        if e.hostCallbacks & TraitEnvironment.hostCachesCollection != 0 { activeDelegate?.environmentDidUpdateTraits(e) }
        stats.traitUpdates += 1
        markChildrenForTraits(e)
        e.pending.insert(.subtreeTraits)
        if tracer != nil { trace(.traitsChanged(e, diff.definitions)) }
        if e.isView {
            if diff.affectsColor || (e.extras != nil && unsafeDowncast(e, to: View.self).imageReads(anyOf: diff.definitions)) {
                unsafeDowncast(e, to: View.self).setNeedsDisplay()
            }
            if e.hasTrackedTraits { invalidateTracked(e, unsafeDowncast(e, to: View.self), diff.ids) }
            // A controller's tracked callbacks also read its view's collection;
            // without overrides the view's change was the controller's (handled).
            if e.hasOverrides, let vc = unsafeDowncast(e, to: View.self).owningViewController,
               vc.hasTrackedTraits, vc.viewIfLoaded === e {
                invalidateTracked(vc, unsafeDowncast(e, to: View.self), diff.ids)
            }
        } else if e.hasTrackedTraits, let vc = e.asViewController, let v = vc.viewIfLoaded {
            invalidateTracked(vc, v, diff.ids)
        } else if e.hasTrackedTraits, e.kind == .presentationController, let box = e.trackedBox,
                  box.lists(.layout, anyOf: diff.ids) {
            unsafeDowncast(e, to: PresentationController.self).setNeedsLayout()
        }
        try deliverChange(e, old, diff)
    }

    /// The callbacks of `e`'s change, once its collection is stored: its
    /// registrations, then `traitCollectionDidChange` (UIKit's order, WWDC23
    /// "Unleash the UIKit trait system"). `apply` and the fast path share it.
    @inline(__always)
    private func deliverChange(_ e: TraitEnvironment, _ old: TraitCollection, _ diff: Diff) throws {
        if e.hasRegistrations { try deliver(e, old, diff) }
        // The engine's classes only forward to the host (see `isSubclassed`).
        if e.isSubclassed {
            try e.traitCollectionDidChange(old)
        } else if e.hostCallbacks & TraitEnvironment.hostTraitCollectionDidChange != 0 {
            try performAsCurrent(e.traitCollection) { try activeDelegate?.environment(e, traitCollectionDidChange: old) }
        }
    }

    /// Marks the trait children of `e` for a trait update (`forEachTraitChild`,
    /// with a plain view's subviews walked here rather than through a closure).
    @inline(__always)
    private func markChildrenForTraits(_ e: TraitEnvironment) {
        guard e.kind == .view else {
            e.forEachTraitChild { $0.pending.insert(.traits) }
            return
        }
        if unsafeDowncast(e, to: View.self).subviews.isEmpty { return }
        unsafeDowncast(e, to: View.self).subviews.withUnsafeBufferPointer { subviews in
            for s in subviews { TraitWorld.markForTraits(s, subviewOf: e) }
        }
    }

    /// Marks what subview `s` of `parent` stands for in the trait tree: `s`,
    /// or the controller owning it when that inherits from `parent`.
    @inline(__always)
    static func markForTraits(_ s: View, subviewOf parent: TraitEnvironment) {
        if s.hasOwningViewController {
            if let vc = s.owningViewController, vc.inherits(from: parent) { vc.pending.insert(.traits) }
        } else {
            s.pending.insert(.traits)   // a subview's superview is this view
        }
    }

    private func invalidateTracked(_ e: TraitEnvironment, _ view: View, _ ids: [Int]) {
        // Reads recorded on iOS 18 or later invalidate nothing once the
        // world runs an earlier version (``os`` set after them).
        guard tracksTraitsAutomatically, let box = e.trackedBox else { return }
        if box.lists(.layout, anyOf: ids) { view.setNeedsLayout() }
        if box.lists(.display, anyOf: ids) { view.setNeedsDisplay() }
        if box.lists(.properties, anyOf: ids) { e.markNeedsUpdateProperties() }
        if box.lists(.constraints, anyOf: ids) { e.markNeedsUpdateConstraints() }
    }

    /// Runs `e`'s registrations for `diff`: those made before the first runs
    /// (this holds them, as an array copy would), each still active when reached.
    private func deliver(_ e: TraitEnvironment, _ old: TraitCollection, _ diff: Diff) throws {
        switch e.registrationList {
        case nil: break
        case .one(let r): try deliver(r, e, old, diff)
        case .many(let all): for r in all { try deliver(r, e, old, diff) }
        }
    }

    @inline(__always)
    private func deliver(_ r: TraitChangeRegistration, _ e: TraitEnvironment, _ old: TraitCollection, _ diff: Diff) throws {
        guard r.isActive && r.matches(diff.ids) else { return }
        stats.handlersCalled += 1
        trace(.handlerCalled(e, r.traits.filter { diff.ids.contains($0.id) }))
        // Handlers run with the environment's collection current, as UIKit's do.
        if try !performAsCurrent(e.traitCollection, { try r.deliver(e, old, in: self) }) { e.unregisterForTraitChanges(r) }
    }

    /// `updateTraitsIfNeeded`: updates the environments from the root down to
    /// `e` and, with `subtree`, everything below `e`, delivering change
    /// callbacks now; layout is left for the next update.
    func updateTraitsNow(along e: TraitEnvironment, subtree: Bool = true) throws {
        try deliverNotedTransitions()
        reparentPresentations()
        guard e.isInWindowScene || e.kind == .screen else { return }
        var path: [TraitEnvironment] = []
        var cur: TraitEnvironment? = e.traitParent
        while let c = cur { path.append(c); cur = c.traitParent }
        if !isUpdating && path.contains(where: { $0.pending.contains(.traits) }) { beginNumberedUpdate() }
        for node in path.reversed() where node.pending.contains(.traits) {
            try updateOneNow(node)
        }
        if subtree {
            hasPendingWork = true
            try visit(e, .traitsOnly)
        } else if e.pending.contains(.traits) {
            try updateOneNow(e)
        }
    }

    private func updateOneNow(_ node: TraitEnvironment) throws {
        node.pending.remove(.traits)
        if node.pending.contains(.forceSubtree) {
            forceChildren(of: node)
            // A controller about to appear stays marked, so the update
            // still runs its appearance callbacks.
            if let vc = node.asViewController, vc.appearance == .disappeared, vc.isViewInWindow {
                node.pending.insert(.traits)
            } else {
                node.pending.remove(.forceSubtree)
            }
        }
        try updateOwnTraits(node)
        if node.flags.contains(.hasHostedContent) { try node.hostedContent?.hostTraitsDidUpdate() }
        hasPendingWork = true
    }
}
