import CLua
import CLuaShim
import CTraitLabModule
import TraitLabLua

/// Called once per Lua state by `luaopen_traitlab`: attaches a host (kept
/// alive by the state itself) and pushes `{ traits, ui, swiftui, plugins }`.
@_cdecl("traitlab_module_open")
public func traitlabModuleOpen(_ L: OpaquePointer?) -> Int32 {
    guard let L else { return 0 }
    do {
        let host = try LuaHost.attached(to: L)
        host.pushLibrary()
        return 1
    } catch {
        let message = "traitlab: \((error as? LuaError)?.text ?? "\(error)")"
        message.withCString { _ = lua_pushstring(L, $0) }
        return TL_RAISE_VALUE
    }
}

/// The reset behind `require "traitlab.busted"`: a fresh engine world for the
/// state's host, if the module has attached one. Never raises.
@_cdecl("traitlab_module_reset")
public func traitlabModuleReset(_ L: OpaquePointer?) -> Int32 {
    guard let L, let host = LuaHost.existing(for: L) else { return 0 }
    host.resetWorld()
    return 0
}
