// What an update does after the traits are in place (see TraitWorld.swift
// for the world's state): appearance callbacks, then properties, layout and
// display, each where it is pending.

extension TraitWorld {
    // MARK: Appearance

    func handleDisappearances() throws {
        let leaving = appeared.filter { !$0.isViewInWindow || !$0.isInWindowScene }
        guard !leaving.isEmpty else { return }
        // Sets, not searches of the lists: dismissing a chain of 50,000
        // presentations makes 50,000 controllers leave at once.
        let leavingIDs = Set(leaving.map(ObjectIdentifier.init))
        appeared.removeAll { leavingIDs.contains(ObjectIdentifier($0)) }
        var handled = Set<ObjectIdentifier>()
        // The controllers handled no longer wait for viewDidAppear.
        defer { if !didAppearQueue.isEmpty { didAppearQueue.removeAll { handled.contains(ObjectIdentifier($0)) } } }
        for (n, vc) in leaving.enumerated() {
            handled.insert(ObjectIdentifier(vc))
            vc.appearance = .disappearing
            didDisappearQueue.append(vc)
            do {
                try vc.viewWillDisappear()
            } catch {
                // The controllers not handled yet are checked again at the next update.
                appeared.append(contentsOf: leaving[(n + 1)...])
                structureChanged = true
                hasPendingWork = true
                throw error
            }
        }
    }

    func flushAppearanceQueues() throws {
        // Callbacks still queued when one of them fails run at the next update.
        defer { if !didDisappearQueue.isEmpty || !didAppearQueue.isEmpty { hasPendingWork = true } }
        // (In order, each removed before its callback runs; the ones left
        // when a callback fails stay queued. Removed in one step at the end:
        // one removeFirst each would be quadratic in a long queue.)
        var done = 0
        defer { didDisappearQueue.removeFirst(done) }
        while done < didDisappearQueue.count {
            let vc = didDisappearQueue[done]
            done += 1
            vc.appearance = .disappeared
            try vc.viewDidDisappear()
        }
        var appearedDone = 0
        defer { didAppearQueue.removeFirst(appearedDone) }
        while appearedDone < didAppearQueue.count {
            let vc = didAppearQueue[appearedDone]
            appearedDone += 1
            try vc.viewDidAppear()
        }
    }

    // MARK: Properties, layout, display

    /// Runs one kind of render work (properties, layout or display) where it
    /// is pending below `root`, top-down, with an explicit stack.
    func visitRender(_ root: TraitEnvironment, _ need: PendingWork, _ marker: PendingWork) throws {
        var stack: [(env: TraitEnvironment, children: [TraitEnvironment], next: Int)] = []
        func enter(_ e: TraitEnvironment) throws {
            if e.pending.contains(need) {
                e.pending.remove(need)
                try perform(need, on: e)
            }
            guard e.pending.contains(marker) else { return }
            e.pending.remove(marker)
            stack.append((e, e.traitChildren, 0))
        }
        do {
            try enter(root)
            while !stack.isEmpty {
                let top = stack.count - 1
                guard stack[top].next < stack[top].children.count else {
                    stack.removeLast()
                    continue
                }
                let c = stack[top].children[stack[top].next]
                stack[top].next += 1
                if c.pending.contains(need) || c.pending.contains(marker) { try enter(c) }
            }
        } catch {
            // What was not reached stays reachable from the root for the next update.
            for frame in stack { frame.env.pending.insert(marker) }
            hasPendingWork = true
            throw error
        }
    }

    func perform(_ work: PendingWork, on e: TraitEnvironment) throws {
        if work == .properties {
            // updateProperties exists from iOS 26: never called before.
            guard os.has(.updateProperties) else { return }
            stats.propertyUpdates += 1
            try e.tracking(.properties) {
                if let v = e.asView { try v.updateProperties() } else if let vc = e.asViewController { try vc.updateProperties() }
            }
        } else if work == .constraints {
            try e.tracking(.constraints) {
                if let v = e.asView { try v.updateConstraints() } else if let vc = e.asViewController { try vc.updateViewConstraints() }
            }
        } else if work == .layout, let v = e.asView {
            try layout(v)
        } else if work == .layout, e.kind == .presentationController {
            try layoutContainer(unsafeDowncast(e, to: PresentationController.self))
        } else if work == .display, let v = e.asView {
            stats.draws += 1
            try v.tracking(.display) { try v.draw() }
        }
    }

    func layout(_ v: View) throws {
        stats.layouts += 1
        let vc = v.owningViewController.flatMap { $0.viewIfLoaded === v ? $0 : nil }
        if let vc {
            vc.tracked.layout = []
            // (A new run: viewDidLayoutSubviews adds to what this one reads.)
            try vc.tracking(.layout) { try vc.viewWillLayoutSubviews() }
        }
        try v.tracking(.layout) { try v.layoutSubviews() }
        if let vc { try vc.tracking(.layout, accumulate: true) { try vc.viewDidLayoutSubviews() } }
    }

    /// A presentation's container lays out: `containerViewWillLayoutSubviews`
    /// then `containerViewDidLayoutSubviews` (its presented content lays out
    /// after it, in the same traversal), both tracked (iOS 18: "UIKit
    /// supports automatic trait tracking inside this method").
    func layoutContainer(_ pc: PresentationController) throws {
        pc.tracked.layout = []
        try pc.tracking(.layout, accumulate: true) { try pc.containerViewWillLayoutSubviews() }
        try pc.tracking(.layout, accumulate: true) { try pc.containerViewDidLayoutSubviews() }
    }

    /// `updatePropertiesIfNeeded` and `updateConstraintsIfNeeded`: runs
    /// `need` now where it is pending on `e`'s ancestors (outermost first)
    /// and in `e`'s subtree.
    func renderNow(_ e: TraitEnvironment, _ need: PendingWork, _ marker: PendingWork) throws {
        var path: [TraitEnvironment] = []
        var cur = e.traitParent
        while let c = cur { if c.pending.contains(need) { path.append(c) }; cur = c.traitParent }
        for a in path.reversed() where a.pending.contains(need) {
            a.pending.remove(need)
            try perform(need, on: a)
        }
        try visitRender(e, need, marker)
    }

    func updatePropertiesNow(_ e: TraitEnvironment) throws { try checkBeforeApplyingWork(); try renderNow(e, .properties, .subtreeProperties) }
    func updateConstraintsNow(_ e: TraitEnvironment) throws { try checkBeforeApplyingWork(); try renderNow(e, .constraints, .subtreeConstraints) }

    /// `layoutIfNeeded`: starts at the outermost of the unbroken line of
    /// ancestors that need layout (Core Animation, `CALayer.layoutIfNeeded`:
    /// "the layer's super layers are traversed until a ancestor layer is
    /// found that does not require layout. Then layout is performed on the
    /// entire layer-tree beneath that ancestor"), updates what that inherits
    /// from, then runs the update's traversal over its subtree now (traits,
    /// properties, constraints and layout; outside any window, no traits).
    func layoutNow(_ view: View) throws {
        try checkBeforeApplyingWork()
        var host = view.traitHost
        var cur = host.traitParent
        while let c = cur {
            // A controller lays out through its view: look past it.
            if c.kind == .viewController { cur = c.traitParent; continue }
            guard c.isView, c.pending.contains(.layout) else { break }
            host = unsafeDowncast(c, to: View.self).traitHost
            cur = host.traitParent
        }
        if host.isInWindowScene {
            try updateTraitsNow(along: host, subtree: false)
            try visit(host, .full)
        } else {
            try visit(host, .renderOnly)
        }
    }
}
