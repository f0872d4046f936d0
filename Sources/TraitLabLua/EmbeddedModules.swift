import CLua
import CLuaShim

extension LuaHost {
    /// Loads (without running) the Lua source `name` that this target
    /// carries (lua/NAME.lua, compiled in by the EmbedLua plugin).
    func loadEmbedded(_ name: String) throws {
        try loadEmbedded(name, from: EmbeddedLua.sources)
    }

    /// Loads (without running) the Lua source `name` among `sources` (a
    /// target's `EmbeddedLua.sources`, which the EmbedLua plugin makes), as
    /// text, named `=traitlab.NAME` in tracebacks. Leaves the chunk on the stack.
    package func loadEmbedded(_ name: String, from sources: [String: StaticString]) throws {
        guard let source = sources[name] else {
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
