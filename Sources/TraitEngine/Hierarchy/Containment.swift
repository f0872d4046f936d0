// MARK: - Loops

extension TraitEnvironment {
    /// Whether one of `nodes` is this environment or above it in either
    /// hierarchy mode: superviews, owning and parent controllers, presenters,
    /// windows. An edit that puts one of them below this environment is
    /// refused, so the inheritance chain never loops, in this mode or after a
    /// switch. (iOS 17 mode alone would miss a loop through a child controller
    /// whose view is not loaded yet: it inherits from its parent until then,
    /// and a walk of such a loop, `ui.dump` for one, never ended.)
    func isContained(inAnyOf nodes: [TraitEnvironment]) -> Bool {
        var seen = Set<ObjectIdentifier>()
        var todo: [TraitEnvironment] = [self]
        while let e = todo.popLast() {
            guard seen.insert(ObjectIdentifier(e)).inserted else { continue }
            if nodes.contains(where: { $0 === e }) { return true }
            switch e {
            case is Window:
                break   // only scenes are above a window
            case let v as View:
                if let s = v.superview { todo.append(s) }
                if let vc = v.owningViewController, vc.viewIfLoaded === v { todo.append(vc) }
            case let vc as ViewController:
                if let w = vc.windowAsRoot { todo.append(w) }
                if let pc = vc.presentationController { todo.append(pc) }
                if let p = vc.parent { todo.append(p) }
                if let s = vc.viewIfLoaded?.superview { todo.append(s) }
            case let pc as PresentationController:
                // The presenter: the presented view joins the presenter's
                // window (``View/window``), which the walk reaches from the
                // presenter (asking for the window here would walk the
                // chain again at every presentation: cubic in its depth).
                if pc.isPresenting, let p = pc.presentingViewController { todo.append(p) }
            default:
                break
            }
        }
        return false
    }
}
