import CLua
import CLuaShim

extension LuaHost {
    /// Loads (without running) the Lua source `name` that this target
    /// carries (lua/NAME.lua, compiled in by the EmbedLua plugin), as text,
    /// named `=traitlab.NAME` in tracebacks. Leaves the chunk on the stack.
    func loadEmbedded(_ name: String) throws {
        guard let source = EmbeddedLua.source(name) else {
            throw LuaError.message("the Lua module '\(name)' is missing from this build")
        }
        let status = source.utf8Start.withMemoryRebound(to: CChar.self, capacity: source.utf8CodeUnitCount) {
            luaL_loadbufferx(L, $0, source.utf8CodeUnitCount, "=traitlab." + name, "t")
        }
        guard status == LUA_OK else {
            throw LuaError.message("cannot load the Lua module '\(name)': \(popError())")
        }
    }
}
