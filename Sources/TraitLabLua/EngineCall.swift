import CLuaShim

extension LuaHost {
    /// Runs Swift code that may call back into Lua (a bridge's read or write,
    /// say) from outside any Lua call, the way the engine's own entry points
    /// do: objects collected meanwhile are released only once it returns.
    public func withEngineCall<T>(_ body: () throws -> T) rethrows -> T {
        guard let h = tl_gethost(L) else { return try body() }
        h.pointee.swift_frames += 1
        defer {
            h.pointee.swift_frames -= 1
            if h.pointee.swift_frames == 0 { LuaFunctions.drainReleases() }
        }
        return try body()
    }
}
