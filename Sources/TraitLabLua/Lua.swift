import CLua
import CLuaShim
import TraitEngine

/// A Lua state pointer. Swift code here only calls Lua APIs that cannot raise
/// (memory errors are held off by the shim's allocator while Swift runs);
/// anything that may run Lua code goes through `tl_pcall`.
public typealias LuaStatePointer = OpaquePointer

/// An error a Swift function reports to Lua. The trampoline raises it after
/// the Swift frame has returned.
public enum LuaError: Error {
    /// A message; the trampoline prefixes the caller's position ("file:line:").
    case message(String)
    /// A complete error message (already positioned, with a traceback) raised as is.
    case raised(String)
    /// Any other error value Lua code raised (a table such as a luassert
    /// failure, a number, an object with `__tostring`), kept by the host
    /// (``LuaHost/popErrorValue()``) and raised again as that very value.
    /// `description` stands for it where text is needed.
    case value(serial: Int, description: String)

    public var text: String {
        switch self {
        case .message(let m), .raised(let m), .value(_, let m): return m
        }
    }

    /// The error with the callback it came from: the message says
    /// `in layoutSubviews of View "cell"` on a line of its own, and the
    /// traceback's last frame (the callback's function, which UIKit called
    /// with no name Lua knows) is named so too. Only Lua's own messages are
    /// changed; an error value (a luassert failure) stays the very value.
    func inCallback(_ callback: String, of env: TraitEnvironment) -> LuaError {
        // (Lua's memory error has no position; it is reported as it is.)
        guard case .raised(let text) = self, !text.hasPrefix("not enough memory") else { return self }
        let place = "in \(callback) of \(env)"
        let marker = "\nstack traceback:\n"
        guard let header = text.firstRange(of: marker) else { return .raised(text + "\n\t" + place) }
        var frames = String(text[header.upperBound...])
        let lastLine = frames.lastIndex(of: "\t") ?? frames.startIndex
        if frames.hasSuffix(">"), let fn = frames[lastLine...].firstRange(of: " in function <") {
            frames.replaceSubrange(fn.lowerBound..<frames.endIndex, with: " " + place)
        }
        return .raised(String(text[..<header.lowerBound]) + "\n\t" + place + "\nstack traceback:\n" + frames)
    }

    /// Memory refused by `--memory-limit`: the message the trampoline raises
    /// for the cap, as it is (no position: Lua's own memory error has none).
    public static let overMemoryLimit = LuaError.raised(overMemoryLimitMessage)
    public static let overMemoryLimitMessage = "not enough memory (memory limit exceeded)"
    /// Memory the system could not give: Lua's own message.
    public static let outOfMemory = LuaError.raised("not enough memory")
}

/// A Swift function callable from Lua. It reads its arguments from the stack,
/// pushes results and returns how many.
package typealias LuaFunction = (LuaCall) throws -> Int32

/// One call from Lua into Swift: the state and the host that owns it.
package struct LuaCall {
    package let L: LuaStatePointer
    /// Not retained: the host outlives every call into it (it owns the state).
    package unowned(unsafe) let host: LuaHost
    let fnid: Int32
    /// The name the function is registered under, for argument errors (looked
    /// up when needed: copying it into every call was a retain and a release).
    var name: String { LuaFunctions.functions[Int(fnid)].name }
}

/// The process-wide table of Swift functions exposed to Lua. Every state uses
/// the same ids, so a function is registered once, by name.
enum LuaFunctions {
    /// Room for every function the libraries register (about 200), so that
    /// creating the first host never regrows them (start-up, docs/performance.md).
    @exclusivity(unchecked) nonisolated(unsafe) static var functions: [(name: String, body: LuaFunction)] = {
        var a: [(name: String, body: LuaFunction)] = []
        a.reserveCapacity(512)
        return a
    }()
    /// Names to ids, made on the first registration that is not a host's
    /// set-up replaying the sequence of the first one (see ``id(_:_:)``).
    @exclusivity(unchecked) nonisolated(unsafe) static var ids: [String: Int32]?
    /// While a host sets its library up: the position in the sequence of
    /// registrations the first host made (nil: registrations go by name).
    @exclusivity(unchecked) nonisolated(unsafe) static var setUpPosition: Int?
    /// Swift objects whose Lua box was collected while Swift was on the stack;
    /// released at the next safe point.
    @exclusivity(unchecked) nonisolated(unsafe) static var deferredReleases: [UnsafeMutableRawPointer] = []

    /// The id of the function registered as `name`, registering `body` under
    /// it if it is new. Every host's set-up registers the same functions in
    /// the same order, so while one sets up (``beginSetUp()``), a name is
    /// matched against the one at the same place in the sequence (the first
    /// host extends the sequence, a name it repeats gets an entry again:
    /// no name is hashed at start); out of step, and outside a set-up, the
    /// name is looked up. Either way an id always runs the body registered
    /// under its name.
    static func id(_ name: String, _ body: @escaping LuaFunction) -> Int32 {
        if let k = setUpPosition {
            if k == functions.count {
                functions.append((name, body))
                if ids != nil, ids![name] == nil { ids![name] = Int32(k) }
                setUpPosition = k + 1
                return Int32(k)
            }
            if functions[k].name == name {
                setUpPosition = k + 1
                return Int32(k)
            }
            setUpPosition = nil   // out of step with the first host: by name from here on
        }
        if ids == nil {
            // The first occurrence of each name wins, as a lookup would have found it.
            var made = [String: Int32](minimumCapacity: functions.count + 64)
            for (i, f) in functions.enumerated() where made[f.name] == nil { made[f.name] = Int32(i) }
            ids = made
        }
        // One hash of the name: the dictionary's modify accessor finds the
        // entry or inserts the next id in one lookup.
        let next = Int32(functions.count)
        let id = found(&ids![name, default: next])
        if id == next { functions.append((name, body)) }
        return id
    }
    @inline(__always) private static func found(_ v: inout Int32) -> Int32 { v }

    /// A host starts (or ends) setting its library up: see ``id(_:_:)``.
    static func beginSetUp() { setUpPosition = 0 }
    static func endSetUp() { setUpPosition = nil }

    static func install() {
        tl_set_dispatch(luaDispatch, luaRelease)
    }

    static func drainReleases() {
        while let p = deferredReleases.popLast() {
            Unmanaged<AnyObject>.fromOpaque(p).release()
        }
    }
}

private func luaDispatch(_ L: OpaquePointer?, _ fnid: Int32) -> Int32 {
    guard let L, let hostPtr = tl_gethost(L)?.pointee.swift_host else { return 0 }
    let host = Unmanaged<LuaHost>.fromOpaque(hostPtr).takeUnretainedValue()
    if !LuaFunctions.deferredReleases.isEmpty, tl_gethost(L).pointee.swift_frames == 1 {
        LuaFunctions.drainReleases()
    }
    // The id comes from an upvalue, which debug.setupvalue could change.
    guard LuaFunctions.functions.indices.contains(Int(fnid)) else {
        L.push("corrupt TraitLab function")
        return TL_RAISE_WHERE
    }
    // Work on the calling thread's stack (a coroutine has its own), with room
    // to spare: a C function is only promised LUA_MINSTACK slots.
    let outer = host.L
    host.L = L
    _ = lua_checkstack(L, 64)
    defer { host.L = outer }
    do {
        return try LuaFunctions.functions.withUnsafeBufferPointer {
            try $0[Int(fnid)].body(LuaCall(L: L, host: host, fnid: fnid))
        }
    } catch let e as LuaError {
        switch e {
        case .message(let m):
            L.push(abbreviatedMessage(m))
            return TL_RAISE_WHERE
        case .raised(let m):
            L.push(m)
            return TL_RAISE_VALUE
        case .value(let serial, let description):
            host.pushErrorValue(serial: serial, description: description)
            return TL_RAISE_VALUE
        }
    } catch let e as TraitError {
        L.push(abbreviatedMessage(e.message))
        return TL_RAISE_WHERE
    } catch {
        L.push(abbreviatedMessage("\(error)"))
        return TL_RAISE_WHERE
    }
}

/// An error message of TraitLab's own, cut to a readable length: messages
/// quote what a script passed (a name, a color, a list of enum cases), which
/// may be megabytes long.
func abbreviatedMessage(_ m: String, limit: Int = 1_000) -> String {
    let count = m.utf8.count
    guard count > limit else { return m }
    let bytes = Array(m.utf8)
    var end = limit
    while end > 0, bytes[end] & 0xC0 == 0x80 { end -= 1 }   // not inside a character
    return String(decoding: bytes[..<end], as: UTF8.self) + "… (\(count - end) more bytes)"
}

private func luaRelease(_ payload: UnsafeMutableRawPointer?, _ deferred: Int32) {
    guard let payload else { return }
    if deferred != 0 {
        LuaFunctions.deferredReleases.append(payload)
    } else {
        Unmanaged<AnyObject>.fromOpaque(payload).release()
    }
}

/// Kinds of boxed Swift objects, stored in the box so foreign values are refused.
/// The kinds C reads by number (CLuaShim.h's TL_KIND_*) must be these cases'
/// raw values (HostTests.testBoxKindsMatchTheShimsNumbers).
enum BoxKind: Int32 {
    case environment = 1, definition, enumeration, collection, mutableTraits, overrides, color, registration
    case environmentKey, swiftUIView, hostingConfiguration, representable, plugin
    case font   // ui.Font and ui.FontMetrics (TypeLibrary.swift)
    case transitionCoordinator   // TransitionLibrary.swift
}

// MARK: - Stack helpers

extension LuaStatePointer {
    public var top: Int32 { lua_gettop(self) }
    public func setTop(_ n: Int32) { lua_settop(self, n) }
    public func pop(_ n: Int32 = 1) { tl_pop(self, n) }
    func type(_ i: Int32) -> Int32 { lua_type(self, i) }
    func isNil(_ i: Int32) -> Bool { lua_type(self, i) <= 0 }
    func absIndex(_ i: Int32) -> Int32 { lua_absindex(self, i) }

    /// Makes room for `n` more values (recursive code calls it at each level).
    /// The shim's allocator never fails while Swift runs, so this only fails
    /// past Lua's stack limit.
    func ensureStack(_ n: Int32) throws {
        guard lua_checkstack(self, n) != 0 else {
            throw LuaError.message("stack overflow (values nested too deeply)")
        }
    }

    /// Pushes `s`; an empty string instead when the system has no room for
    /// Lua's copy of a big one (``roomForLua(_:)``: the trampoline then
    /// raises "not enough memory").
    public func push(_ s: String) {
        var s = s
        s.withUTF8 { buf in
            guard roomForLua(buf.count) else { lua_pushlstring(self, "", 0); return }
            _ = buf.withMemoryRebound(to: CChar.self) { lua_pushlstring(self, $0.baseAddress, $0.count) }
        }
    }

    /// Whether Lua's allocations for a value Swift is about to push, about
    /// `bytes`, can be had: while Swift runs they cannot fail, and past the
    /// reserve kept for small ones the process would end. A megabyte or more
    /// is checked first (tl_lua_room); when there is no room the trampoline
    /// raises "not enough memory" once Swift returned, and the caller pushes
    /// something small instead.
    @inline(__always)
    func roomForLua(_ bytes: Int) -> Bool {
        bytes < 1 << 20 || tl_lua_room(self, bytes) != 0
    }
    package func push(_ b: Bool) { lua_pushboolean(self, b ? 1 : 0) }
    package func push(_ i: Int) { lua_pushinteger(self, lua_Integer(i)) }
    package func push(_ d: Double) { lua_pushnumber(self, d) }
    package func pushNil() { lua_pushnil(self) }
    package func pushValue(_ i: Int32) { lua_pushvalue(self, i) }
    func pushFunction(_ id: Int32) { tl_pushfunction(self, id) }

    /// Asks before the engine allocates about `bytes` for the script:
    /// "not enough memory" when that would pass `--memory-limit`, or when
    /// the system could not give it (an address-space limit), so the work
    /// is refused before it is done. Raised by the trampoline.
    func chargeEngine(_ bytes: Int) throws {
        switch tl_engine_charge(self, bytes > 0 ? bytes : 0) {
        case TL_CHARGE_OK: return
        case TL_CHARGE_OVER_CAP: throw LuaError.overMemoryLimit
        default: throw LuaError.outOfMemory
        }
    }

    /// The string at `i` (as ``string(_:)``) for text the engine keeps or
    /// copies (names, cases, identifiers, keys): its copy asked for first
    /// (``chargeEngine(_:)``) when it takes memory of its own (Swift keeps
    /// up to 15 bytes inside the string).
    func keptString(_ i: Int32) throws -> String? {
        guard lua_type(self, i) == LUA_TSTRING else { return nil }
        var len = 0
        guard let p = tl_tostring(self, i, &len) else { return nil }
        if len > 15 { try chargeEngine(len) }
        return String(decoding: UnsafeRawBufferPointer(start: p, count: len), as: UTF8.self)
    }

    /// The string at `i` if it is a string (numbers are not converted).
    package func string(_ i: Int32) -> String? {
        guard lua_type(self, i) == LUA_TSTRING else { return nil }
        var len = 0
        guard let p = tl_tostring(self, i, &len) else { return nil }
        return String(decoding: UnsafeRawBufferPointer(start: p, count: len), as: UTF8.self)
    }

    /// The bytes of the string at `i` exactly (no UTF-8 repair).
    package func bytes(_ i: Int32) -> [UInt8]? {
        guard lua_type(self, i) == LUA_TSTRING else { return nil }
        var len = 0
        guard let p = tl_tostring(self, i, &len) else { return nil }
        return Array(UnsafeRawBufferPointer(start: p, count: len))
    }

    package func integer(_ i: Int32) -> Int? {
        var ok: Int32 = 0
        let v = tl_tointeger(self, i, &ok)
        return ok != 0 ? Int(v) : nil
    }

    package func number(_ i: Int32) -> Double? {
        guard lua_type(self, i) == LUA_TNUMBER else { return nil }
        return tl_tonumber(self, i, nil)
    }

    func bool(_ i: Int32) -> Bool { lua_toboolean(self, i) != 0 }

    /// The Lua type name of the value at `i`, with `__name` for boxed objects.
    func typeName(_ i: Int32) -> String {
        if let obj = box(i, as: AnyObject.self) {
            if let env = obj as? TraitEnvironment { return env.className }
            return LuaHost.kindName(of: obj)
        }
        return String(cString: lua_typename(self, lua_type(self, i)))
    }

    /// Pushes `t[key]` without metamethods and returns its type; nil when
    /// `t` is not a table (a value read back from Lua may be anything).
    @discardableResult
    public func rawGet(_ table: Int32, _ key: String) -> Int32 {
        let t = absIndex(table)
        guard lua_type(self, t) == LUA_TTABLE else { pushNil(); return LUA_TNIL }
        push(key)
        return lua_rawget(self, t)
    }

    /// `t[key] = top`, raw; pops the value. Does nothing but pop when `t` is
    /// not a table.
    public func rawSet(_ table: Int32, _ key: String) {
        let t = absIndex(table)
        guard lua_type(self, t) == LUA_TTABLE else { pop(); return }
        push(key)
        tl_insert(self, -2)
        lua_rawset(self, t)
    }

    func registryGet(_ ref: Int32) { lua_rawgeti(self, tl_registryindex(), lua_Integer(ref)) }

    /// Pushes the table the host keeps in the registry at `ref`. Outside the
    /// sandbox a script can write the registry (`debug.getregistry()`), and a
    /// table operation on anything else would corrupt memory: a value there
    /// that is no table is replaced by an empty table, so forging loses the
    /// host's state kept there, never its memory safety.
    func registryTable(_ ref: Int32) {
        if lua_rawgeti(self, tl_registryindex(), lua_Integer(ref)) == LUA_TTABLE { return }
        pop()
        lua_createtable(self, 0, 0)
        guard ref > 0 else { return }   // (no slot to heal: LUA_NOREF, LUA_REFNIL)
        pushValue(-1)
        lua_rawseti(self, tl_registryindex(), lua_Integer(ref))   // (a key the registry has: no allocation)
    }

    /// Empties the table the host keeps in the registry at `ref`, but for the
    /// keys `keep` is true of (the key on top while it decides).
    func clearRegistryTable(_ ref: Int32, keeping keep: () -> Bool = { false }) {
        registryTable(ref)
        pushNil()
        while lua_next(self, -2) != 0 {
            pop()
            if keep() { continue }
            pushValue(-1)
            pushNil()
            lua_rawset(self, -4)   // (clearing a field during the traversal, as next allows)
        }
        pop()
    }

    /// Whether the value at `i` can be a table key: lua_rawset raises for nil
    /// and NaN, which must not happen from Swift.
    func isTableKey(_ i: Int32) -> Bool {
        !(isNil(i) || (lua_type(self, i) == LUA_TNUMBER && number(i)?.isNaN == true))
    }

    /// Stores the top value in the registry and returns its reference (pops it).
    package func ref() -> Int32 { luaL_ref(self, tl_registryindex()) }
    package func unref(_ ref: Int32) { luaL_unref(self, tl_registryindex(), ref) }

    /// Pushes a new table with room for `narr` array items and `nrec` other
    /// fields; false, with an empty table pushed, when the system has no room
    /// for it (``roomForLua(_:)``): the caller then leaves it empty.
    @discardableResult
    package func newTable(narr: Int32 = 0, nrec: Int32 = 0) -> Bool {
        guard roomForLua(16 * Int(narr) + 40 * Int(nrec)) else { lua_createtable(self, 0, 0); return false }
        lua_createtable(self, narr, nrec)
        return true
    }

    /// The Swift object in a TraitLab box at `i`, if it has the expected type.
    func box<T>(_ i: Int32, as: T.Type) -> T? {
        guard let p = tl_tobox(self, i, nil) else { return nil }
        return Unmanaged<AnyObject>.fromOpaque(p).takeUnretainedValue() as? T
    }

    /// Pushes a new box holding `obj` (retained until the box is collected).
    func pushBox(_ obj: AnyObject, kind: BoxKind, userValues: Int32 = 0) {
        let p = Unmanaged.passRetained(obj).toOpaque()
        _ = tl_newbox(self, p, kind.rawValue, userValues)
    }

    /// Iterates the raw key/value pairs of the table at `t` (keys at -2, values at -1
    /// during `body`). The body must leave the stack as it found it.
    func forEachPair(_ t: Int32, _ body: () throws -> Void) rethrows {
        let t = absIndex(t)
        guard lua_type(self, t) == LUA_TTABLE else { return }
        pushNil()
        while lua_next(self, t) != 0 {
            // The key goes back to lua_next as it was, whatever the body left:
            // a wrong one is an error lua_next raises, through this frame.
            let value = top
            do { try body() } catch { lua_settop(self, value - 2); throw error }
            lua_settop(self, value - 1)
        }
    }

    /// How many fields the table at `t` has (0 for anything else).
    package func fieldCount(_ t: Int32) -> Int {
        let t = absIndex(t)
        guard lua_type(self, t) == LUA_TTABLE else { return 0 }
        var n = 0
        pushNil()
        while lua_next(self, t) != 0 { n += 1; pop() }
        return n
    }

    /// The raw length of a table or string.
    package func rawLength(_ i: Int32) -> Int { Int(lua_rawlen(self, i)) }
}

extension LuaHost {
    /// `table[name] = function`, registered once per process as "prefix.name".
    package func setFunction(_ table: Int32, _ prefix: String, _ name: String, _ body: @escaping LuaFunction) {
        L.pushFunction(LuaFunctions.id(prefix + "." + name, body))
        L.rawSet(table, name)
    }

    /// Pushes the one Lua object kept for a long-lived Swift object (a trait
    /// definition or enum), making it with the metatable `meta` on first use.
    func pushPinned(_ obj: AnyObject, kind: BoxKind, meta: Int32) {
        let key = Unmanaged.passUnretained(obj).toOpaque()
        L.registryTable(refs.definitions)
        if tl_rawgetp(L, -1, key) != LUA_TNIL { tl_remove(L, -2); return }
        L.pop()
        L.pushBox(obj, kind: kind)
        L.registryTable(meta)
        lua_setmetatable(L, -2)
        L.pushValue(-1)
        tl_rawsetp(L, -3, key)
        tl_remove(L, -2)
    }
}

// MARK: - Argument checks (errors, never raises)

extension LuaCall {
    var argCount: Int32 { lua_gettop(L) }

    func argError(_ i: Int32, _ message: String) -> LuaError {
        .message("bad argument #\(i) to '\(name)' (\(message))")
    }

    func typeError(_ i: Int32, _ expected: String) -> LuaError {
        if tl_isdeadbox(L, i) != 0 {
            return argError(i, TL_DEAD_OBJECT_MESSAGE)
        }
        let got = lua_type(L, i) == LUA_TNONE ? "no value" : L.typeName(i)   // (luaL_typeerror: nil is "nil")
        if i == 1 && expected.first?.isUppercase == true && name.contains(":") {
            return .message("calling '\(name)' on bad self (\(expected) expected, got \(got))")
        }
        return argError(i, "\(expected) expected, got \(got)")
    }

    /// A string argument, asked for (``LuaStatePointer/keptString(_:)``).
    package func string(_ i: Int32) throws -> String {
        guard let s = try L.keptString(i) else { throw typeError(i, "string") }
        return s
    }

    func optString(_ i: Int32) throws -> String? {
        if L.isNil(i) { return nil }
        return try string(i)
    }

    func table(_ i: Int32) throws {
        guard lua_type(L, i) == LUA_TTABLE else { throw typeError(i, "table") }
    }

    func function(_ i: Int32) throws {
        guard lua_type(L, i) == LUA_TFUNCTION else { throw typeError(i, "function") }
    }

    package func object<T>(_ i: Int32, _ type: T.Type, _ expected: String) throws -> T {
        guard let o = L.box(i, as: T.self) else { throw typeError(i, expected) }
        return o
    }

    func environment<T: TraitEnvironment>(_ i: Int32, _ type: T.Type, _ expected: String) throws -> T {
        try object(i, T.self, expected)
    }
}
