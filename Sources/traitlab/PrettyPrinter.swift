import CLua
import CLuaShim

// How the REPL shows values. Written in Lua because it walks arbitrary Lua
// values and calls `__tostring`, which may fail or loop: run through the
// interpreter's `docall`, a failure is an ordinary reported error and a loop
// is stopped by Ctrl-C or --timeout.
//
// TraitLab's objects (environments, collections, definitions, colors) show
// through their `tostring`; plain tables are laid out with their keys sorted,
// inline when short, indented when not, with a marker where a table contains
// itself.

/// The chunk returns `render(color, ...)`, which returns one string for
/// all the values, separated by tabs as `print` does.
private let prettyPrinterSource = #"""
local type, tostring, rawget, next, select, getmetatable, pcall, ipairs = type, tostring, rawget, next, select, getmetatable, pcall, ipairs
local mtype, concat, sort, format = math.type, table.concat, table.sort, string.format

local keywords = {}
for w in ("and break do else elseif end false for function goto if in local nil not or repeat return then true until while"):gmatch("%a+") do
  keywords[w] = true
end

local MAX_DEPTH, MAX_ITEMS, WIDTH = 8, 200, 72
local color
local codes = { string = "32", number = "33", boolean = "35", ["nil"] = "35", object = "36", other = "34", mark = "2" }

local function paint(kind, s)
  if color then return "\27[" .. codes[kind] .. "m" .. s .. "\27[0m" end
  return s
end

local function visible_length(s)
  return #s:gsub("\27%[[%d;]*m", "")
end

local escapes = { ['"'] = '\\"', ["\\"] = "\\\\", ["\n"] = "\\n", ["\r"] = "\\r", ["\t"] = "\\t" }
local function quote(s)
  return '"' .. s:gsub('[%c"\\]', function(c) return escapes[c] or format("\\%03d", c:byte()) end) .. '"'
end

local function safe_tostring(v)
  local ok, s = pcall(tostring, v)
  if ok and type(s) == "string" then return s end
  return "<" .. type(v) .. ": __tostring failed: " .. tostring(s) .. ">"
end

-- Tables with __tostring or a protected metatable (trait collections,
-- classes) print like objects.
local function has_tostring(v)
  local mt = getmetatable(v)
  if mt == nil then return false end
  return type(mt) ~= "table" or rawget(mt, "__tostring") ~= nil
end

local function scalar(v)
  local t = type(v)
  if t == "string" then return paint("string", quote(v)) end
  if t == "number" then return paint("number", tostring(v)) end
  if t == "boolean" or t == "nil" then return paint(t, tostring(v)) end
  if t == "userdata" or t == "table" then return paint("object", safe_tostring(v)) end
  return paint("other", safe_tostring(v))
end

local order = { number = 1, string = 2, boolean = 3 }
local function key_before(a, b)
  local ta, tb = type(a), type(b)
  if ta ~= tb then return (order[ta] or 4) < (order[tb] or 4) end
  if ta == "number" or ta == "string" then return a < b end
  return safe_tostring(a) < safe_tostring(b)
end

local render

local function key_text(k, indent, seen, depth)
  if type(k) == "string" and k:match("^[%a_][%w_]*$") and not keywords[k] then return k end
  return "[" .. render(k, indent, seen, depth) .. "]"
end

render = function(v, indent, seen, depth)
  if type(v) ~= "table" or has_tostring(v) then return scalar(v) end
  if seen[v] then return paint("mark", "<cycle: " .. safe_tostring(v) .. ">") end
  if depth >= MAX_DEPTH then return paint("mark", "{...}") end
  seen[v] = true
  local inner = indent .. "  "
  local parts, n = {}, 0
  while rawget(v, n + 1) ~= nil and n < MAX_ITEMS do
    n = n + 1
    parts[n] = render(rawget(v, n), inner, seen, depth + 1)
  end
  local keys, extra = {}, 0
  for k in next, v do
    if not (mtype(k) == "integer" and k >= 1 and k <= n) then
      if #keys < MAX_ITEMS then keys[#keys + 1] = k else extra = extra + 1 end
    end
  end
  sort(keys, key_before)
  for _, k in ipairs(keys) do
    parts[#parts + 1] = key_text(k, inner, seen, depth + 1) .. " = " .. render(rawget(v, k), inner, seen, depth + 1)
  end
  if extra > 0 then parts[#parts + 1] = paint("mark", "... " .. extra .. " more") end
  seen[v] = nil
  if #parts == 0 then return "{}" end
  local line = "{ " .. concat(parts, ", ") .. " }"
  if visible_length(indent .. line) <= WIDTH and not line:find("\n", 1, true) then return line end
  return "{\n" .. inner .. concat(parts, ",\n" .. inner) .. "\n" .. indent .. "}"
end

return function(use_color, ...)
  color = use_color
  local out = {}
  for i = 1, select("#", ...) do
    local v = (select(i, ...))
    -- A string of several lines (a dump, a report) prints as it is, as
    -- lua5.4's prompt prints every string; one line stays quoted.
    if type(v) == "string" and v:find("\n", 1, true) then
      out[i] = v:gsub("\n$", "")
    else
      out[i] = render(v, "", {}, 0)
    end
  end
  return concat(out, "\t")
end
"""#

/// The compiled printer, kept in the registry.
struct PrettyPrinter {
    private let ref: Int32

    /// Compiles the printer; nil if that fails (out of memory).
    init?(_ interpreter: Interpreter) {
        let L = interpreter.L
        guard L.load(prettyPrinterSource, name: "=(pretty printer)", mode: "t") == LUA_OK,
              interpreter.docall(0, 1) == LUA_OK, lua_type(L, -1) == LUA_TFUNCTION else {
            L.pop()
            return nil
        }
        ref = luaL_ref(L, tl_registryindex())
    }

    /// Replaces the `count` values on top of the stack with their text, or
    /// returns an error status with the message on top.
    func render(_ interpreter: Interpreter, count: Int32, color: Bool) -> Int32 {
        let L = interpreter.L
        guard lua_checkstack(L, 3) != 0 else { return LUA_ERRMEM }
        lua_rawgeti(L, tl_registryindex(), lua_Integer(ref))
        lua_pushboolean(L, color ? 1 : 0)
        // values..., printer, flag  ->  printer, flag, values...
        lua_rotate(L, L.top - 1 - count, 2)
        return interpreter.docall(count + 1, 1)
    }
}
