import CLua
import CLuaShim

extension LuaHost {
    /// Loads (without running) the Lua file `name` that this target
    /// carries (lua/NAME.lua, compiled in by the EmbedLua plugin).
    func loadEmbedded(_ name: String) throws {
        try loadEmbedded(name, from: EmbeddedLua.chunks)
    }

    /// Loads (without running) the Lua file `name` among `chunks` (a
    /// target's `EmbeddedLua.chunks`, which the EmbedLua plugin makes),
    /// named `=traitlab.NAME` in tracebacks. Its bytecode, compiled when
    /// TraitLab was built, when its header matches the running Lua's;
    /// otherwise (another Lua build) its source, as text. Leaves the chunk on
    /// the stack.
    package func loadEmbedded(_ name: String,
                              from chunks: [String: (source: StaticString, bytecode: StaticString)]) throws {
        guard let chunk = chunks[name] else {
            throw LuaError.message("the Lua module '\(name)' is missing from this build")
        }
        if chunk.bytecode.utf8CodeUnitCount > 0, loadBytecode(chunk.bytecode, name: name) { return }
        let source = chunk.source
        let status = source.utf8Start.withMemoryRebound(to: CChar.self, capacity: source.utf8CodeUnitCount) {
            luaL_loadbufferx(L, $0, source.utf8CodeUnitCount, "=traitlab." + name, "t")
        }
        guard status == LUA_OK else {
            throw LuaError.message("cannot load the Lua module '\(name)': \(popError())")
        }
    }

    /// Loads embedded bytecode (each character of `text` is one byte) if
    /// it suits this Lua; false (nothing pushed) otherwise.
    private func loadBytecode(_ text: StaticString, name: String) -> Bool {
        tl_load_embedded_bytecode(L, text.utf8Start, text.utf8CodeUnitCount, "=traitlab." + name) != 0
    }
}
