import CLua
import CLuaShim

// The few stack operations only the command line needs, over the C API. Each one
// is non-raising: the tool's own Swift code runs with the shim's "innermost
// frame is Swift" flag set, so allocations here never fail with a longjmp, and
// nothing here calls a metamethod. Anything that runs Lua goes through
// `tl_pcall` (see Interpreter.docall).

typealias LuaState = OpaquePointer

// Stack basics (top, pop, push, rawGet, rawSet) come from TraitLabLua.
extension LuaState {
    /// The string at `i` when it is a string or a number (as `lua_tostring`
    /// converts it, in place, which is harmless for values we own).
    func string(_ i: Int32) -> String? {
        let t = lua_type(self, i)
        guard t == LUA_TSTRING || t == LUA_TNUMBER else { return nil }
        var len = 0
        guard let p = tl_tostring(self, i, &len) else { return nil }
        return String(decoding: UnsafeRawBufferPointer(start: p, count: len), as: UTF8.self)
    }

    func typeName(_ i: Int32) -> String {
        String(cString: lua_typename(self, lua_type(self, i)))
    }

    /// Pushes the globals table.
    func pushGlobals() { lua_rawgeti(self, tl_registryindex(), lua_Integer(LUA_RIDX_GLOBALS)) }

    /// Loads a chunk from memory without running it; returns a Lua status
    /// with the function or the error message on top.
    func load(_ code: String, name: String, mode: String? = nil) -> Int32 {
        tl_recover(self)   // the memory a refused allocation left to finalizers, first
        var code = code
        return code.withUTF8 { buf in
            buf.withMemoryRebound(to: CChar.self) { luaL_loadbufferx(self, $0.baseAddress, $0.count, name, mode) }
        }
    }

    /// Iterates the raw string keys of the table at `t`.
    func forEachStringKey(_ t: Int32, _ body: (String, Int32) -> Void) {
        let t = lua_absindex(self, t)
        lua_pushnil(self)
        while lua_next(self, t) != 0 {
            if lua_type(self, -2) == LUA_TSTRING, let k = string(-2) { body(k, lua_type(self, -1)) }
            pop()
        }
    }
}
