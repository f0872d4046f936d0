import CLua
import CLuaShim
import TraitEngine

// The properties of trait environments as scripts read and set them
// (EnvironmentLibrary.swift makes the classes).
extension LuaHost {
    // MARK: - Properties

    func getProperty(_ c: LuaCall) throws -> Int32 {
        let env = try c.object(1, TraitEnvironment.self, "TraitEnvironment")
        guard let id = L.integer(3), let p = EnvironmentProperty(id: id) else { L.pushNil(); return 1 }
        let view = env as? View, vc = env as? ViewController
        func pushOpt(_ e: TraitEnvironment?) { if let e { push(e) } else { L.pushNil() } }
        func pushList(_ list: [TraitEnvironment]) {
            // (With room for an object per item: each may be made now. Left
            // empty when there is none; the trampoline raises.)
            guard L.newTable(narr: Int32(clamping: list.count)), L.roomForLua(96 * list.count) else { return }
            for (k, e) in list.enumerated() { push(e); lua_rawseti(L, -2, lua_Integer(k + 1)) }
        }
        switch p {
        case .name: if let n = env.name { L.push(n) } else { L.pushNil() }
        case .className: L.push(env.className)
        case .traitCollection:
            // Tracked reads always reach Swift (tl_env_index asks
            // `environmentCollection`, which declines them); others are served
            // from C once the collection's object exists.
            push(env.traitCollection, tracking: world.tracksReads(of: env))
        case .traitOverrides:
            if env is Screen { throw LuaError.message("a screen has no trait overrides; use screen:setTraits { ... }") }
            try world.require(.traitSystem, "traitOverrides")
            L.pushBox(OverridesBox(env), kind: .overrides)
            L.registryTable(refs.overridesMeta)
            lua_setmetatable(L, -2)
            L.pushValue(-1)
            setHostField(1, "traitOverrides")
        case .superview: pushOpt(view?.superview)
        case .subviews: pushList(view?.subviews ?? [])
        case .window: pushOpt(view?.window ?? vc?.viewIfLoaded?.window)
        case .view:
            guard let vc else { L.pushNil(); return 1 }
            push(try vc.loadViewIfNeeded())
        case .viewIfLoaded: pushOpt(vc?.viewIfLoaded)
        case .isViewLoaded: if let vc { L.push(vc.viewIfLoaded != nil) } else { L.pushNil() }
        case .parent: pushOpt(vc?.parent)
        case .children: pushList(vc?.children ?? [])
        case .presentedViewController: pushOpt(vc?.presentedViewControllerOfRequest)
        case .presentingViewController: pushOpt(vc?.presentingViewControllerOfNearestPresentedAncestor)
        case .presentationController: pushOpt(vc?.presentationController)
        case .rootViewController: pushOpt((env as? Window)?.rootViewController)
        case .windowScene: pushOpt((env as? Window)?.windowScene ?? view?.window?.windowScene)
        case .windows: if let s = env as? WindowScene { pushList(s.windows) } else { L.pushNil() }
        case .screen: pushOpt((env as? WindowScene)?.screen)
        case .backgroundColor:
            // The object that was assigned (it keeps a dynamic color's function alive).
            if pushHostField(1, "__backgroundColor") == LUA_TUSERDATA, L.box(-1, as: ColorBox.self) != nil { return 1 }
            L.pop()
            if let color = view?.backgroundColor { pushColor(color) } else { L.pushNil() }
        case .traitParent: pushOpt(env.traitParent)
        case .traitChildren: pushList(env.traitChildren)
        case .isConnected: if let s = env as? WindowScene { L.push(s.isConnected) } else { L.pushNil() }
        case .rootView, .contentConfiguration: pushHostingProperty(key: p.key, of: env)
        case .font, .adjustsFontForContentSizeCategory, .text, .textColor, .resolvedTextColor,
             .minimumContentSizeCategory, .maximumContentSizeCategory:
            try pushTypeProperty(p.key, of: env)
        case .tintColor, .resolvedBackgroundColor, .resolvedTintColor, .image, .resolvedImage:
            try pushResourceProperty(p.key, of: env)
        case .device: if let d = (env as? Screen)?.device { L.push(d.name) } else { L.pushNil() }
        case .orientation:
            if let s = env as? Screen, s.device != nil { L.push(s.orientation.rawValue) } else { L.pushNil() }
        case .size:
            if let s = env as? Screen {
                if let size = s.size { pushSize(size) } else { L.pushNil() }
            } else if let scene = env as? WindowScene {
                if case .custom(let size) = scene.size { pushSize(size) } else { L.push(scene.size.description) }
            } else {
                L.pushNil()
            }
        case .bounds:
            if let scene = env as? WindowScene, let g = scene.geometry { pushSize(g.size) }
            else if let s = env as? Screen, let size = s.size { pushSize(size) }
            else { L.pushNil() }
        case .modalPresentationStyle: if let vc { L.push(vc.modalPresentationStyle.rawValue) } else { L.pushNil() }
        case .definesPresentationContext: if let vc { L.push(vc.definesPresentationContext) } else { L.pushNil() }
        case .overrideUserInterfaceStyle:
            if view != nil || vc != nil { L.push(env.overrideUserInterfaceStyle) } else { L.pushNil() }
        case .overrideTraitCollection:
            if let tc = (env as? PresentationController)?.overrideTraitCollection { push(tc) } else { L.pushNil() }
        case .presentationStyle: if let pc = env as? PresentationController { L.push(pc.presentationStyle.rawValue) } else { L.pushNil() }
        case .adaptivePresentationStyle:
            if let pc = env as? PresentationController { L.push(pc.adaptivePresentationStyle.rawValue) } else { L.pushNil() }
        }
        return 1
    }

    /// `{ width = W, height = H }` in points.
    func pushSize(_ size: Size) {
        L.newTable(nrec: 2)
        for (key, v) in [("width", size.width), ("height", size.height)] {
            // Whole points read as integers ({ width = 932, height = 430 }).
            if v == v.rounded(), abs(v) < 1e15 { L.push(Int(v)) } else { L.push(v) }
            L.rawSet(-2, key)
        }
    }

    /// An orientation's name at `index`.
    func orientationValue(at index: Int32) throws -> Orientation {
        guard lua_type(L, index) == LUA_TSTRING, let s = L.string(index), let o = Orientation(rawValue: s) else {
            let names = Orientation.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
            throw LuaError.message("orientation must be one of \(names), got \(L.string(index).map { "\"\($0)\"" } ?? L.typeName(index))")
        }
        return o
    }

    /// A scene size at `index`: "full", "2/3", "1/2", "1/3", "slideOver" or
    /// `{ width = W, height = H }` (points).
    func sceneSizeValue(at index: Int32) throws -> SceneSize {
        let i = L.absIndex(index)
        if lua_type(L, i) == LUA_TSTRING, let s = L.string(i) {
            guard let size = SceneSize(name: s) else {
                throw LuaError.message("a scene size is \"full\", \"2/3\", \"1/2\", \"1/3\", \"slideOver\" or { width = W, height = H }, got \"\(s)\"")
            }
            return size
        }
        guard lua_type(L, i) == LUA_TTABLE else {
            throw LuaError.message("a scene size is \"full\", \"2/3\", \"1/2\", \"1/3\", \"slideOver\" or { width = W, height = H }, got \(L.typeName(i))")
        }
        var w: Double?, h: Double?
        if L.rawGet(i, "width") == LUA_TNUMBER { w = L.number(-1) }
        L.pop()
        if L.rawGet(i, "height") == LUA_TNUMBER { h = L.number(-1) }
        L.pop()
        guard let w, let h else { throw LuaError.message("a scene size table needs numbers width and height (points)") }
        return .custom(Size(w, h))
    }

    func setProperty(_ c: LuaCall) throws -> Int32 {
        let env = try c.object(1, TraitEnvironment.self, "TraitEnvironment")
        let key = try c.string(2)
        if EnvironmentProperty(rawValue: key) == nil, callbackBit(key) != nil {
            try setUserField(1, key: 2, value: 3)
            return 0
        }
        try setProperty(env: env, object: 1, key: key, value: 3)
        return 0
    }

    func setProperty(env: TraitEnvironment, object: Int32, key: String, value v: Int32) throws {
        let readOnly = { LuaError.message("property '\(key)' of \(env.className) is read-only") }
        let notHere = { LuaError.message("\(env.className) has no property '\(key)'") }
        guard let p = EnvironmentProperty(rawValue: key) else { throw notHere() }
        switch p {
        case .name:
            if L.isNil(v) { env.name = nil; return }
            guard let s = try L.keptString(v) else { throw LuaError.message("name must be a string, got \(L.typeName(v))") }
            env.name = s
        case .rootViewController:
            guard let w = env as? Window else { throw notHere() }
            if L.isNil(v) { try w.setRootViewController(nil); return }
            guard let vc = L.box(v, as: ViewController.self) else {
                throw LuaError.message("rootViewController must be a ViewController, got \(L.typeName(v))")
            }
            try w.setRootViewController(vc)
        case .windowScene:
            guard let w = env as? Window else { throw readOnly() }
            if L.isNil(v) { w.setWindowScene(nil); return }
            guard let s = L.box(v, as: WindowScene.self) else {
                throw LuaError.message("windowScene must be a WindowScene, got \(L.typeName(v))")
            }
            w.setWindowScene(s)
        case .backgroundColor:
            guard let view = env as? View else { throw notHere() }
            let color = L.box(v, as: ColorBox.self)
            if color == nil && !L.isNil(v) {
                throw LuaError.message("backgroundColor must be a ui.Color, got \(L.typeName(v))")
            }
            view.backgroundColor = color?.value
            // The view's Lua object keeps the color object (and a dynamic color's
            // function) alive: a function capturing the view is a Lua-only cycle.
            L.pushValue(v)
            setHostField(object, "__backgroundColor")
        case .rootView, .contentConfiguration:
            try setHostingProperty(p.key, of: env, object: object, value: v)
        case .font, .adjustsFontForContentSizeCategory, .text, .textColor, .minimumContentSizeCategory, .maximumContentSizeCategory:
            try setTypeProperty(p.key, of: env, object: object, value: v)
        case .tintColor, .image:
            try setResourceProperty(p.key, of: env, object: object, value: v)
        case .orientation:
            guard let screen = env as? Screen else { throw notHere() }
            try screen.rotate(to: try orientationValue(at: v))
        case .size:
            guard let scene = env as? WindowScene else { throw readOnly() }
            try scene.resize(to: try sceneSizeValue(at: v))
        case .modalPresentationStyle:
            guard let vc = env as? ViewController else { throw notHere() }
            guard let name = L.string(v), let style = PresentationStyle(rawValue: name) else {
                let cases = PresentationStyle.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
                throw LuaError.message("modalPresentationStyle must be one of \(cases), got \(L.string(v).map { "\"\($0)\"" } ?? L.typeName(v))")
            }
            vc.modalPresentationStyle = style
        case .definesPresentationContext:
            guard let vc = env as? ViewController else { throw notHere() }
            guard lua_type(L, v) == LUA_TBOOLEAN else { throw LuaError.message("definesPresentationContext must be a boolean, got \(L.typeName(v))") }
            vc.definesPresentationContext = lua_toboolean(L, v) != 0
        case .overrideUserInterfaceStyle:
            guard env is View || env is ViewController else { throw notHere() }
            try env.setOverrideUserInterfaceStyle(L.isNil(v) ? .string("unspecified") : try traitValue(at: v))
        case .overrideTraitCollection:
            guard let pc = env as? PresentationController else { throw notHere() }
            if L.isNil(v) { pc.overrideTraitCollection = nil; return }
            guard let tc = collection(at: v) else {
                throw LuaError.message("overrideTraitCollection must be a TraitCollection or nil, got \(L.typeName(v))")
            }
            pc.overrideTraitCollection = tc
        default:
            throw readOnly()
        }
    }
}
