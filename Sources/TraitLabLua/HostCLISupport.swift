import CLua
import CLuaShim
import TraitEngine

// What the `traitlab` command line needs from a host beyond running chunks:
// settling pending work from the top level, and looking at TraitLab objects
// for the REPL (pretty printing, `:tree`, `:traits`, tab completion).
//
// Nothing here raises or runs Lua code: it reads raw tables and Swift objects
// only, so it is safe to call at any time, including from a completion
// callback in the middle of line editing.

extension LuaHost {
    // MARK: - Top-level work

    /// Applies pending trait work (what `ui.update()` does) from outside Lua,
    /// as the command line does after each chunk and each REPL input.
    ///
    /// Returns nil on success, or the error message (a callback's error comes
    /// with its position and traceback). Boxes collected meanwhile are
    /// released only afterwards, exactly as when `ui.update()` is called from
    /// Lua, so a finalizer never re-enters the engine mid-update.
    public func settlePendingWork() -> String? {
        guard let h = tl_gethost(L) else { return nil }
        h.pointee.swift_frames += 1
        defer {
            h.pointee.swift_frames -= 1
            if h.pointee.swift_frames == 0 { LuaFunctions.drainReleases() }
        }
        do {
            try world.update()
            return nil
        } catch let e as LuaError {
            return text(of: e)
        } catch let e as TraitError {
            return e.message
        } catch {
            return "\(error)"
        }
    }

    /// What lua.c would print for `e`: for an error value that is not a
    /// string (``LuaError/value(serial:description:)``), its `__tostring`.
    public func text(of e: LuaError) -> String {
        guard case .value(let serial, let description) = e else { return e.text }
        let base = L.top
        defer { L.setTop(base) }
        pushErrorValue(serial: serial, description: description)
        let status = tl_error_text(L)
        guard let s = L.string(-1) else { return description }
        // A __tostring that failed (or ran out of time): its own error says what happened.
        return status == LUA_OK ? s : "\(description) (its __tostring failed: \(s))"
    }

    // MARK: - Looking at values

    /// The environment whose Lua object is at `index`, if it is one.
    public func environment(at index: Int32) -> TraitEnvironment? {
        L.box(index, as: TraitEnvironment.self)
    }

    /// Pushes the Lua object of `env`: the same value scripts see.
    public func pushEnvironment(_ env: TraitEnvironment) {
        push(env)
    }

    /// `ui.dump(env)` (or `ui.dump(env, "full")`): the subtree below `env`,
    /// fitted to the terminal's width; when the memory cap refuses the dump,
    /// `env` alone and why.
    public func treeDescription(of env: TraitEnvironment, full: Bool = false) -> String {
        do {
            return try dump(env, format: full ? "full" : "tree")
        } catch {
            return env.description + " (no tree: \((error as? LuaError)?.text ?? "\(error)"))\n"
        }
    }

    /// `ui.picture(env, path, { trait = trait, why = why })`: writes the
    /// picture and returns its path; throws a ``LuaError`` saying why not.
    public func picture(of env: TraitEnvironment, path: String, trait: TraitDefinition?,
                        why: TraitEnvironment? = nil) throws -> String {
        try picture(env, path: path, trait: trait, why: why, timeout: 20)
    }

    // MARK: - Completion

    /// The names a user can type after `value.` or `value:` for the TraitLab
    /// object at `index` (environments, collections, overrides, definitions,
    /// colors ...), or nil when it is not one of ours. Includes the fields a
    /// script stored on an environment and, where traits work as keys, the
    /// property name of every registered definition. With `methodsOnly`, just
    /// what can be called with `:`.
    public func memberNames(ofObjectAt index: Int32, methodsOnly: Bool = false) -> [String]? {
        let i = L.absIndex(index)
        let traitProperties = methodsOnly ? [] : world.registry.definitions.map(\.property)
        if let env = environment(at: i) {
            return environmentMemberNames(env, at: i, methodsOnly: methodsOnly)
        }
        if collection(at: i) != nil {
            return traitProperties + ["changedTraits", "modifyingTraits", "encode"]
        }
        guard let obj = L.box(i, as: AnyObject.self) else { return nil }
        switch obj {
        case is OverridesBox: return traitProperties + ["contains", "remove"]
        case is MutableTraitsBox: return traitProperties
        case is TraitDefinition:
            return methodsOnly ? [] : ["name", "default", "type", "identifier", "affectsColorAppearance", "property", "cases", "isOptional", "isSystem"]
        case let e as TraitEnum: return methodsOnly ? [] : ["name", "cases"] + e.cases
        case is ColorBox: return (methodsOnly ? [] : ["red", "green", "blue", "alpha", "hex", "isDynamic"]) + ["resolvedColor"]
        case is TraitChangeRegistration: return methodsOnly ? [] : ["isActive"]
        default: return methodNames(ofObjectAt: i)
        }
    }

    /// Pushes what `key` names on the TraitLab object at `index`, when that
    /// can be found without running code or changing anything (`vc.view` only
    /// once the view is loaded, for instance), so completion can walk
    /// `a.b.c.` paths. Returns false, pushing nothing, otherwise.
    public func pushMemberWithoutSideEffects(ofObjectAt index: Int32, key: String) -> Bool {
        let i = L.absIndex(index)
        guard let env = environment(at: i) else { return false }
        if tl_rawlookup(L, i, key) != LUA_TNIL { return true }   // user field, method, cached value
        L.pop()
        let view = env as? View, vc = env as? ViewController
        let target: TraitEnvironment?
        switch key {
        case "traitCollection":
            push(env.traitCollection)
            return true
        case "traitOverrides":
            guard !(env is Screen) else { return false }
            L.pushBox(OverridesBox(env), kind: .overrides)
            L.registryTable(refs.overridesMeta)
            lua_setmetatable(L, -2)
            return true
        case "view", "viewIfLoaded": target = vc?.viewIfLoaded
        case "superview": target = view?.superview
        case "window": target = view?.window ?? vc?.viewIfLoaded?.window
        case "parent": target = vc?.parent
        case "presentedViewController": target = vc?.presentedViewController
        case "presentingViewController": target = vc?.presentingViewController
        case "presentationController": target = vc?.presentationController
        case "rootViewController": target = (env as? Window)?.rootViewController
        case "windowScene": target = (env as? Window)?.windowScene ?? view?.window?.windowScene
        case "screen": target = (env as? WindowScene)?.screen
        case "traitParent": target = env.traitParent
        default: target = nil
        }
        guard let target else { return false }
        push(target)
        return true
    }

    private func environmentMemberNames(_ env: TraitEnvironment, at i: Int32, methodsOnly: Bool) -> [String] {
        var names: [String] = []
        // The field table (the object's user value) holds user fields; the
        // class table (its metatable's __metatable) and its chain the methods.
        let base = L.top
        if pushFields(i, create: false) {
            L.forEachPair(L.top) {
                guard !methodsOnly || lua_type(L, -1) == LUA_TFUNCTION else { return }
                if let k = L.string(-2), !k.hasPrefix("__") { names.append(k) }
            }
        }
        if lua_getmetatable(L, i) != 0, L.rawGet(-1, "__metatable") == LUA_TTABLE {
            names += tableChainNames(at: L.top)
        }
        L.setTop(base)
        if methodsOnly { return names }
        names += ["name", "className", "traitCollection", "traitParent", "traitChildren"]
        if !(env is Screen) { names.append("traitOverrides") }
        if env is View { names += ["superview", "subviews", "window", "windowScene", "backgroundColor"] }
        if env is Window { names += ["rootViewController"] }
        if env is View { names.append("contentConfiguration") }
        if env is HostingController { names.append("rootView") }
        if env is ViewController {
            names += ["view", "viewIfLoaded", "isViewLoaded", "parent", "children", "window",
                      "presentedViewController", "presentingViewController", "presentationController"]
        }
        if env is WindowScene { names += ["windows", "screen", "isConnected"] }
        return names
    }

    /// Raw string keys of the table at `i` and of each table reached through
    /// its metatables' `__index` fields (never calling a function).
    private func tableChainNames(at i: Int32) -> [String] {
        var names: [String] = []
        L.pushValue(i)
        for _ in 0..<32 {
            guard lua_type(L, -1) == LUA_TTABLE else { break }
            L.forEachPair(-1) {
                if let k = L.string(-2), !k.hasPrefix("__") { names.append(k) }
            }
            guard lua_getmetatable(L, -1) != 0 else { break }
            _ = L.rawGet(-1, "__index")
            tl_remove(L, -2)
            tl_remove(L, -2)
        }
        L.pop()
        return names
    }

    /// Method names of a boxed object whose metatable's `__index` is one of
    /// the binding's indexers (a C closure with its method table as second upvalue).
    private func methodNames(ofObjectAt i: Int32) -> [String]? {
        guard lua_getmetatable(L, i) != 0 else { return nil }
        let base = L.top - 1
        defer { L.setTop(base) }
        switch L.rawGet(-1, "__index") {
        case LUA_TTABLE:
            return tableChainNames(at: L.top)
        case LUA_TFUNCTION:
            guard lua_getupvalue(L, -1, 2) != nil, lua_type(L, -1) == LUA_TTABLE else { return nil }
            return tableChainNames(at: L.top)
        default:
            return nil
        }
    }
}

/// `--screen TRAIT=VALUE`: a system trait of the screen by its property name
/// (`userInterfaceStyle=dark`, `displayScale=2`), the value checked as a
/// script's would be. Throws a message naming what is wrong.
public func parseScreenSetting(_ text: String) throws -> TraitCollection.Entry {
    guard let eq = text.firstIndex(of: "=") else {
        throw LuaError.message("--screen needs TRAIT=VALUE (e.g. userInterfaceStyle=dark), got '\(text)'")
    }
    let name = String(text[..<eq]), raw = String(text[text.index(after: eq)...])
    guard let def = SystemTraits.all.first(where: { $0.property == name }) else {
        let known = SystemTraits.all.map(\.property).sorted().joined(separator: ", ")
        throw LuaError.message("--screen: '\(name)' is not a system trait (\(known))")
    }
    let value: TraitValue
    switch def.valueType {
    case .number:
        guard let n = Double(raw), n.isFinite else { throw LuaError.message("--screen \(name) needs a number, got '\(raw)'") }
        value = .number(n)
    case .integer:
        guard let n = Int(raw) else { throw LuaError.message("--screen \(name) needs an integer, got '\(raw)'") }
        value = .int(n)
    case .boolean:
        guard raw == "true" || raw == "false" else { throw LuaError.message("--screen \(name) needs true or false, got '\(raw)'") }
        value = .bool(raw == "true")
    default:
        value = .string(raw)
    }
    do {
        return TraitCollection.Entry(definition: def, value: try Screen.checkTrait(def, value))
    } catch let e as TraitError {
        throw LuaError.message("--screen: \(e.message)")
    }
}
