/// What a host needs to model UIKit's automatic observation tracking
/// (iOS 26; iOS 18 with `UIObservationTrackingEnabled`): a value of an
/// `@Observable` object read in a tracked method invalidates exactly the work
/// of that method when it changes, and only while the method's latest run
/// read it (Apple's "Updating views automatically with observation
/// tracking"; WWDC25 "What's new in UIKit").
///
/// The engine knows nothing of the objects: the host keeps, with each read,
/// the environment, the kind of work (``TraitWorld/trackingKind``) and the
/// run (``TraitWorld/trackingRun``), and on a change asks
/// ``TraitEnvironment/invalidateObserved(_:run:)`` to invalidate the work if
/// that run is still the latest of its kind. A later run that no longer
/// reads the value has another number, so the old read no longer counts.
///
/// ```swift
/// // in a tracked read:
/// let (env, work) = (world.trackingEnvironment!, world.trackingKind)
/// let run = env.noteObservedRead()          // remember (env, work, run)
/// // when the value changes:
/// env.invalidateObserved(work, run: run)   // setNeedsLayout, ...
/// ```
final class ObservationRuns {
    /// By ``TrackedWork`` case index; 0 for none yet.
    var latest = [UInt64](repeating: 0, count: TrackedWork.allCases.count)
}

extension TrackedWork {
    /// The position of this kind in `allCases`: how hosts name it compactly.
    public var index: Int {
        TrackedWork.allCases.firstIndex(of: self)!
    }
}

extension TraitEnvironment {
    /// Marks `work` to run again at the next update, as a change of a value
    /// it tracked does: `setNeedsLayout` (of a view controller's view),
    /// `setNeedsDisplay`, `setNeedsUpdateProperties` or `setNeedsUpdateConstraints`.
    public func invalidate(_ work: TrackedWork) {
        // A presentation controller's tracked work is its container's layout.
        if work == .layout, kind == .presentationController {
            return unsafeDowncast(self, to: PresentationController.self).setNeedsLayout()
        }
        let view = asView ?? asViewController?.viewIfLoaded
        switch work {
        case .layout: view?.setNeedsLayout()
        case .display: view?.setNeedsDisplay()
        case .properties: markNeedsUpdateProperties()
        case .constraints: markNeedsUpdateConstraints()
        }
    }

    /// Notes that the running tracked method of this environment read an
    /// observed value, and returns its run (``TraitWorld/trackingRun``),
    /// which the host keeps with the read. Only environments that read
    /// observed values keep their runs.
    @discardableResult
    public func noteObservedRead() -> UInt64 {
        let run = world.trackingRun
        let kind = world.trackingKind.index
        let details = makeDetails()
        if let runs = details.observationRuns {
            runs.latest[kind] = run
        } else {
            let runs = ObservationRuns()
            runs.latest[kind] = run
            details.observationRuns = runs
        }
        return run
    }

    /// Invalidates `work` when `run` is still its latest run here: the
    /// method has not run again since it read the value that changed.
    /// Returns whether it did.
    @discardableResult
    public func invalidateObserved(_ work: TrackedWork, run: UInt64) -> Bool {
        guard isLatestObservedRun(work, run: run) else { return false }
        invalidate(work)
        return true
    }

    /// Whether `run` is still the latest run of `work` here: a value it
    /// read still has this work depending on it (a change would invalidate
    /// it). A host asks this to let values nothing depends on any more be
    /// read without recording.
    public func isLatestObservedRun(_ work: TrackedWork, run: UInt64) -> Bool {
        run != 0 && extras?.details?.observationRuns?.latest[work.index] == run
    }

    /// The number of a run of this environment's tracked method of `kind`
    /// that starts now: a new one, or with `continuing` the latest one
    /// (the second part of a run, `viewDidLayoutSubviews`).
    func startTrackingRun(_ kind: TrackedWork, continuing: Bool) -> UInt64 {
        if let runs = extras?.details?.observationRuns {
            let i = kind.index
            if continuing && runs.latest[i] != 0 { return runs.latest[i] }
            world.lastTrackingRun &+= 1
            runs.latest[i] = world.lastTrackingRun
            return world.lastTrackingRun
        }
        world.lastTrackingRun &+= 1
        return world.lastTrackingRun
    }
}
