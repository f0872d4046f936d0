import CLua
import CLuaShim
import CSpecRunner
@testable import TraitLabLua
import XCTest

/// `traitlab test` gives busted a faster `debug.traceback` (CSpecRunner/spec.c,
/// tl_traceback). Its text must be Lua's own: ldblib.c's db_traceback and
/// lauxlib.c's luaL_traceback (Lua 5.4.4), compared here call by call with the
/// stock function in the same state, at the same stack.
final class TracebackTests: XCTestCase {
    func testSameTextAsLuasDebugTraceback() throws {
        let h = try LuaHost()
        defer { h.close() }
        lua_pushcclosure(h.L, tl_traceback, 0)
        lua_setglobal(h.L, "fast_traceback")
        let script = #"""
        local stock = debug.traceback
        local function both(...)
          -- Both called from the same line with the same arguments.
          local a, b = stock(...), fast_traceback(...)
          return a, b
        end
        local mismatches = {}
        local function check(label, ...)
          local a, b = both(...)
          -- At level 0 each names itself: the stock one as 'debug.traceback'.
          if type(b) == "string" then b = b:gsub("function 'fast_traceback'", "function 'debug.traceback'") end
          if a ~= b then mismatches[#mismatches + 1] = label .. ":\n" .. tostring(a) .. "\n--- vs ---\n" .. tostring(b) end
        end
        -- Module functions on the stack get their loaded names ("string.gsub", "_G." stripped).
        mymod = { run = function(f) return f() end }
        package.loaded.mymod = mymod
        local function at(label, ...)
          local args = table.pack(...)
          check(label, table.unpack(args, 1, args.n))
          mymod.run(function() check(label .. " in mymod.run", table.unpack(args, 1, args.n)) end)
          string.gsub("x", "x", function() check(label .. " in gsub", table.unpack(args, 1, args.n)) end)
          pcall(function() check(label .. " in pcall", table.unpack(args, 1, args.n)) end)
        end
        for _, level in ipairs { 0, 1, 2, 3, 5, 50, -1, math.maxinteger, math.mininteger } do
          at("level " .. level, "msg", level)
        end
        at("no arguments")
        at("nil message", nil)
        at("message only", "hello")
        at("number message", 42)
        at("table message", {})
        -- Deep stacks: the skipped middle part (more than 22 levels) and more
        -- levels than the fast path collects (64).
        for _, depth in ipairs { 10, 25, 70, 200 } do
          local function rec(n) if n == 0 then check("depth " .. depth, "deep") return end rec(n - 1) end
          rec(depth)
        end
        -- Tail calls and another thread's stack.
        local function tail(n) if n == 0 then return check("tail calls", "t") end return tail(n - 1) end
        tail(3)
        local co = coroutine.create(function(x) coroutine.yield(x) end)
        coroutine.resume(co, 1)
        for _, level in ipairs { 0, 1, 2 } do check("coroutine level " .. level, co, "co", level) end
        check("coroutine no level", co)
        check("coroutine table message", co, {})
        -- Functions stored under several names: the first in findfield's order wins.
        local shared = function(f) return f() end
        package.loaded.aaa = { one = shared, two = shared }
        shared(function() check("shared function", "s") end)
        -- A function loaded as a module of its own (a level-1 match) and as a
        -- field; a module field replaced while it runs (as a stub does); the
        -- same function at several levels of the stack.
        local top = function(f) return f() end
        package.loaded.zzztop = top
        package.loaded.bbb = { alias = top }
        top(function() check("a module that is a function", "m") end)
        local replaced = function(f) return f() end
        package.loaded.ccc = { run = replaced }
        replaced(function() package.loaded.ccc.run = print; check("a field replaced while on the stack", "r") end)
        local function twice(n, f) if n == 0 then return f() end return (twice(n - 1, f)) end
        twice(3, function() check("one function at several levels", "t") end)
        package.loaded.zzztop, package.loaded.bbb, package.loaded.ccc = nil, nil, nil
        return #mismatches == 0 and "same" or table.concat(mismatches, "\n\n")
        """#
        if let e = h.run(script, name: "=traceback_test", results: 1) { return XCTFail(e) }
        XCTAssertEqual(h.L.string(-1), "same")
    }

    func testForgedArgumentsAreErrorsNotCrashes() throws {
        let h = try LuaHost()
        defer { h.close() }
        lua_pushcclosure(h.L, tl_traceback, 0)
        lua_setglobal(h.L, "fast_traceback")
        // Same answers as the stock function for odd arguments.
        let script = #"""
        local out = {}
        for _, args in ipairs { { "m", "x" }, { "m", 1.5 }, { coroutine.create(print), "m", "nope" } } do
          local ok1, a = pcall(debug.traceback, table.unpack(args))
          local ok2, b = pcall(fast_traceback, table.unpack(args))
          out[#out + 1] = tostring(ok1 == ok2) .. " " .. tostring(ok1 or (a:gsub("'debug.traceback'", "?")) == (b:gsub("'fast_traceback'", "?")))
        end
        return table.concat(out, ",")
        """#
        if let e = h.run(script, name: "=traceback_forged", results: 1) { return XCTFail(e) }
        XCTAssertEqual(h.L.string(-1), "true true,true true,true true")
    }
}
