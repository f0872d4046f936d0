-- The editor definitions stay in step with the API: lua/traitlab.d.lua (for
-- lua-language-server) and luacheck's std traitlab (lua/traitlab/luacheck.lua) declare the names a script can use, and
-- these tests compare them with what the live objects expose, in both
-- directions. Adding, renaming or dropping a name in the bindings without
-- updating the definitions (or the other way round) fails here.
-- Paths are relative to the repository root, where `traitlab test` runs.

local DEFINITIONS = "lua/traitlab.d.lua"
local LUACHECKRC = ".luacheckrc"
local LUACHECK_STD = "lua/traitlab/luacheck.lua"

-- Reads the definition file's declarations, following the layout its header
-- describes. Returns { classes = { [name] = class }, aliases = { [name] = cases } }
-- where a class is { parents, fields = { [name] = type }, callbacks, functions,
-- methods } (functions: `T.f(` and `T.x =`; methods: `T:m(`).
local function read_definitions(path)
  local file = assert(io.open(path))
  local classes, aliases, bound = {}, {}, {}
  local open -- the class whose `---@class` block we are in
  local n = 0
  for line in file:lines() do
    n = n + 1
    local name, parents = line:match("^%-%-%-@class%s+([%w_.]+)%s*:?%s*([%w_., ]*)")
    if name then
      assert(not classes[name], ("%s:%d: class %s declared twice"):format(path, n, name))
      open = { name = name, parents = {}, fields = {}, callbacks = {}, functions = {}, methods = {} }
      for parent in parents:gmatch("[%w_.]+") do open.parents[#open.parents + 1] = parent end
      classes[name] = open
    elseif line:match("^%-%-%-") then
      local field, optional, field_type = line:match("^%-%-%-@field%s+([%w_]+)(%??)%s+(%S+)")
      if field and open then
        if optional == "?" and field_type:match("^fun%(") then
          open.callbacks[field] = true
        else
          open.fields[field] = field_type
        end
      end
      local alias, cases = line:match('^%-%-%-@alias%s+([%w_.]+)%s+(".*)$')
      if alias then
        aliases[alias] = {}
        for case in cases:gmatch('"([^"]*)"') do aliases[alias][case] = true end
      end
    else
      local target = line:match("^local%s+([%w_]+)%s*=") or line:match("^([%w_.]+)%s*=")
      if open and target then bound[target] = open end
      open = nil
      local owner, sep, member = line:match("^function%s+([%w_.]+)([.:])([%w_]+)%s*%(")
      if owner then
        local class = assert(bound[owner], ("%s:%d: %s is not bound to a class"):format(path, n, owner))
        class[sep == ":" and "methods" or "functions"][member] = true
      end
      local table_name, key = line:match("^([%w_.]+)%.([%w_]+)%s*=")
      if table_name and bound[table_name] then bound[table_name].functions[key] = true end
    end
  end
  file:close()
  return { classes = classes, aliases = aliases }
end

local defs = read_definitions(DEFINITIONS)

local function class(name)
  return assert(defs.classes[name], DEFINITIONS .. " declares no class " .. name)
end

-- The names of `kinds` ("fields", "methods", ...) of a class and its ancestors.
local function declared(name, ...)
  local names = {}
  local function collect(c, kinds)
    for _, parent in ipairs(c.parents) do collect(class(parent), kinds) end
    for _, kind in ipairs(kinds) do
      for k in pairs(c[kind]) do names[k] = true end
    end
  end
  collect(class(name), { ... })
  return names
end

local function set(list)
  local s = {}
  for _, v in ipairs(list) do s[v] = true end
  return s
end

local function keys(t)
  local s = {}
  for k in pairs(t) do s[k] = true end
  return s
end

-- A global table's members: its keys, and those of `names` that read as
-- something through its metatable (`ui.hierarchyMode`).
local function members(t, names)
  local s = keys(t)
  for k in pairs(names) do
    if t[k] ~= nil then s[k] = true end
  end
  return s
end

local function sorted(s)
  local list = {}
  for k in pairs(s) do list[#list + 1] = tostring(k) end
  table.sort(list)
  return list
end

-- Fails with the names only one side has.
local function same_names(what, declared_names, live_names)
  local missing, extra = {}, {}
  for k in pairs(live_names) do if not declared_names[k] then missing[k] = true end end
  for k in pairs(declared_names) do if not live_names[k] then extra[k] = true end end
  local problems = {}
  if next(missing) then
    problems[#problems + 1] = "live but not declared: " .. table.concat(sorted(missing), ", ")
  end
  if next(extra) then
    problems[#problems + 1] = "declared but not live: " .. table.concat(sorted(extra), ", ")
  end
  assert(#problems == 0, what .. ": " .. table.concat(problems, "; "))
end

-- Keys along a class table's inheritance chain (its metatable's __index;
-- the metatable is protected, so only the debug library reaches it).
local function class_chain_keys(t)
  local names = {}
  while type(t) == "table" do
    for k in pairs(t) do names[k] = true end
    local mt = debug.getmetatable(t)
    t = mt and rawget(mt, "__index")
  end
  return names
end

-- The binding's indexers are C closures that keep their tables as upvalues:
-- the method table of a TraitLab object, or the environments' property table.
local function upvalue_table(fn, has_key)
  for i = 1, 8 do
    local name, value = debug.getupvalue(fn, i)
    if name == nil then break end
    if type(value) == "table" and (has_key == nil or value[has_key] ~= nil) then return value end
  end
  error("no table among the upvalues of the indexer; the binding's layout changed, update this spec")
end

local function indexer(object)
  local index = debug.getmetatable(object).__index
  while type(index) == "table" do index = debug.getmetatable(index).__index end
  return index
end

local function live_methods(object)
  return keys(upvalue_table(indexer(object)))
end

-- The names an error message offers: "... (a, b, c)" or "... (fields: a, b, c)".
local function offered(what, fn)
  local ok, err = pcall(fn)
  assert(not ok, what .. " raised no error")
  local list = tostring(err):match("%(fields: ([^()]*)%)") or tostring(err):match("%(([^()]*)%)%s*$")
  assert(list, what .. ": the error lists no names: " .. tostring(err))
  local names = {}
  for name in list:gmatch("[%w_]+") do names[name] = true end
  return names
end

local GLOBALS = { "traits", "ui", "swiftui", "plugins" }

local ENVIRONMENT_CLASSES = {
  "Screen", "WindowScene", "Window", "View", "ViewController", "HostingController", "PresentationController",
  "Label",
}

describe("lua/traitlab.d.lua", function()
  describe("global tables", function()
    for _, global in ipairs(GLOBALS) do
      it("declares every member of " .. global .. " and nothing else", function()
        local names = declared("traitlab." .. global, "fields", "functions", "methods")
        same_names(global, names, members(_G[global], names))
      end)
    end

    it("declares require('traitlab') with the four globals", function()
      same_names("require('traitlab')", declared("traitlab", "fields"), keys(require("traitlab")))
      for _, global in ipairs(GLOBALS) do
        assert.are.equal("traitlab." .. global, class("traitlab").fields[global])
        assert.are.equal(_G[global], require("traitlab")[global])
      end
    end)
  end)

  describe("environment classes", function()
    for _, name in ipairs(ENVIRONMENT_CLASSES) do
      it("declares the methods and class fields of ui." .. name, function()
        local class_name = class("traitlab.ui").fields[name]
        assert.are.equal("ui." .. name, class_name)
        same_names("ui." .. name, declared(class_name, "functions", "methods"), class_chain_keys(ui[name]))
      end)
    end

    it("declares constructor tables with the class's callbacks and settable properties", function()
      -- Not ui.Screen: its table holds the device's trait values (and a name).
      for _, name in ipairs { "WindowScene", "Window", "View", "ViewController", "HostingController" } do
        local init = "ui." .. name .. ".init"
        same_names(init .. " callbacks", declared(init, "callbacks"), declared("ui." .. name, "callbacks"))
        local properties = declared("ui." .. name, "fields")
        for field in pairs(declared(init, "fields")) do
          assert(properties[field], init .. "." .. field .. " is no property of ui." .. name)
        end
      end
    end)

    it("declares every environment property and nothing else", function()
      local names = declared("TraitEnvironment", "fields")
      for _, name in ipairs(ENVIRONMENT_CLASSES) do
        for k in pairs(declared("ui." .. name, "fields")) do names[k] = true end
      end
      local properties = upvalue_table(indexer(ui.View {}), "traitCollection")
      same_names("environment properties", names, keys(properties))
    end)

    it("declares the lifecycle callbacks the engine calls, on the classes it calls them on", function()
      local seen = { View = {}, ViewController = {} }
      ui.trace(function(event)
        if event.kind == "lifecycle" then
          local kind = getmetatable(event.environment) == ui.ViewController and "ViewController" or "View"
          seen[kind][event.callback] = true
        end
      end)
      local scene = ui.WindowScene {}
      local window = ui.Window { windowScene = scene }
      local root = ui.ViewController {}
      local view = ui.View {}
      window.rootViewController = root
      root.view:addSubview(view)
      ui.update()
      view:setNeedsDisplay()
      view:setNeedsUpdateProperties()
      root:setNeedsUpdateProperties()
      ui.update()
      window.rootViewController = nil
      ui.update()
      ui.trace(false)
      for kind, callbacks in pairs(seen) do
        local names = declared("ui." .. kind, "callbacks")
        names.traitCollectionDidChange = nil -- not a lifecycle event; checked below
        same_names("ui." .. kind .. " callbacks", names, callbacks)
      end
    end)

    it("declares traitCollectionDidChange on every environment class, and the engine calls it", function()
      for _, name in ipairs(ENVIRONMENT_CLASSES) do
        assert(declared("ui." .. name, "callbacks").traitCollectionDidChange,
          "ui." .. name .. " does not declare traitCollectionDidChange")
      end
      local previous
      local scene = ui.WindowScene { traitCollectionDidChange = function(_, p) previous = p end }
      ui.update()
      scene.traitOverrides.userInterfaceStyle = "dark"
      ui.update()
      assert.are.equal("light", previous.userInterfaceStyle)
    end)
  end)

  describe("trait values", function()
    local system = {}
    for _, d in ipairs(traits.definitions()) do
      if d.isSystem then system[d.property] = d end
    end

    it("declares every system trait on collections, mutable traits and overrides", function()
      same_names("SystemTraitValues", declared("SystemTraitValues", "fields"), system)
      same_names("SystemTraitValues.init", declared("SystemTraitValues.init", "fields"), system)
      for _, name in ipairs { "TraitCollection", "MutableTraits", "TraitOverrides" } do
        assert.are.same({ "SystemTraitValues" }, class(name).parents)
      end
    end)

    it("types each enum system trait with an alias of exactly its cases", function()
      for property, alias_name in pairs(class("SystemTraitValues").fields) do
        local cases = system[property] and system[property].cases
        if cases then
          local alias = defs.aliases[alias_name]
          assert(alias, property .. " is typed " .. alias_name .. ", which is no string alias")
          same_names(alias_name .. " (" .. property .. ")", alias, set(cases))
        end
      end
    end)

    it("declares the methods of collections and overrides", function()
      same_names("TraitCollection methods", declared("TraitCollection", "methods"), live_methods(traits.collection {}))
      same_names("TraitOverrides methods", declared("TraitOverrides", "methods"),
        live_methods(ui.View {}.traitOverrides))
    end)

    it("declares the fields of definitions and of what traits.define takes", function()
      same_names("TraitDefinition", declared("TraitDefinition", "fields"),
        offered("a definition's unknown field", function() return traits.DisplayScale.noSuchField end))
      same_names("TraitDefinitionSpec", declared("TraitDefinitionSpec", "fields"),
        offered("traits.define with an unknown field", function() traits.define { noSuchField = 1 } end))
    end)

    it("declares the fields of registrations", function()
      local token = ui.View {}:registerForTraitChanges({ traits.DisplayScale }, function() end)
      for name, declared_type in pairs(class("TraitChangeRegistration").fields) do
        assert.are.equal(declared_type, type(token[name]))
      end
    end)
  end)

  describe("colors and instrumentation", function()
    it("declares ui.Color's functions, fields and methods", function()
      local red = ui.Color(1, 0, 0)
      same_names("ui.Color", declared("ui.Color", "functions"), keys(ui.Color))
      same_names("ui.Color methods", declared("ui.Color", "methods"), live_methods(red))
      same_names("ui.Color fields", declared("ui.Color", "fields", "methods"),
        offered("a color's unknown field", function() return red.noSuchField end))
    end)

    it("declares the fields of ui.stats()", function()
      same_names("ui.Stats", declared("ui.Stats", "fields"), keys(ui.stats()))
    end)

    it("declares the fields of trace events", function()
      local fields, kinds = {}, {}
      ui.trace(function(event)
        for k in pairs(event) do fields[k] = true end
        kinds[event.kind] = true
      end)
      local scene = ui.WindowScene {}
      local window = ui.Window { windowScene = scene }
      window:registerForTraitChanges({ traits.UserInterfaceStyle }, function() end)
      window.rootViewController = ui.ViewController {}
      ui.update()
      scene.traitOverrides.userInterfaceStyle = "dark"
      ui.update()
      ui.trace(false)
      same_names("ui.TraceEvent", declared("ui.TraceEvent", "fields"), fields)
      local kind_type = class("ui.TraceEvent").fields.kind
      local declared_kinds = {}
      for k in kind_type:gmatch('"([^"]*)"') do declared_kinds[k] = true end
      same_names("ui.TraceEvent kinds", declared_kinds, kinds)
    end)
  end)

  describe("swiftui", function()
    it("declares the fields of keys, views, representables and configurations", function()
      local objects = {
        EnvironmentKey = swiftui.EnvironmentKey { name = "editorCheck", default = 1 },
        SwiftUIView = swiftui.View {},
        ViewRepresentable = swiftui.ViewRepresentable { makeView = function() return ui.View {} end },
        ViewControllerRepresentable = swiftui.ViewControllerRepresentable {
          makeViewController = function() return ui.ViewController {} end,
        },
        HostingConfiguration = swiftui.HostingConfiguration(swiftui.View {}),
      }
      for name, object in pairs(objects) do
        same_names(name, declared(name, "fields"),
          offered(name .. "'s unknown field", function() return object.noSuchField end))
      end
    end)

    it("declares the fields of what the swiftui constructors take", function()
      local key = swiftui.EnvironmentKey { name = "editorBridgeCheck", default = 1 }
      local takers = {
        EnvironmentKeySpec = swiftui.EnvironmentKey,
        SwiftUIViewSpec = swiftui.View,
        ViewRepresentableSpec = swiftui.ViewRepresentable,
        ViewControllerRepresentableSpec = swiftui.ViewControllerRepresentable,
        EnvironmentBridge = function(bridge) swiftui.bridge(key, bridge) end,
      }
      for name, take in pairs(takers) do
        same_names(name, declared(name, "fields", "callbacks"),
          offered(name .. " with an unknown field", function() take { noSuchField = 1 } end))
      end
    end)

    it("types each SwiftUI value type with an alias of exactly its cases", function()
      for name, value in pairs(swiftui) do
        if tostring(value):match("^TraitEnum") then
          local alias = defs.aliases["SwiftUI" .. name]
          assert(alias, "no alias SwiftUI" .. name .. " for swiftui." .. name)
          same_names("SwiftUI" .. name, alias, set(value.cases))
        end
      end
    end)

    it("declares built-in environment values that a view can read", function()
      local env = swiftui.View {}.environment
      for name in pairs(declared("EnvironmentValues", "fields")) do
        local ok, err = pcall(function() return env[name] end)
        assert(ok, "EnvironmentValues." .. name .. ": " .. tostring(err))
      end
    end)
  end)

  describe("plugins", function()
    it("declares what plugins.list() gives and what the example manifests hold", function()
      plugins.addPath("examples/plugins")
      local manifest = plugins.load("featureflags")
      same_names("PluginInfo", declared("PluginInfo", "fields"), keys(plugins.list()[1]))
      local manifest_fields = declared("PluginManifest", "fields", "callbacks")
      for k in pairs(manifest) do
        assert(manifest_fields[k], "the featureflags manifest has '" .. k .. "', which PluginManifest lacks")
      end
    end)
  end)
end)

describe("luacheck's std traitlab (lua/traitlab/luacheck.lua)", function()
  local std = dofile(LUACHECK_STD)

  for _, global in ipairs(GLOBALS) do
    it("declares every member of " .. global .. " and nothing else", function()
      local names = keys(std.read_globals[global].fields)
      same_names(LUACHECK_STD .. " " .. global, names, members(_G[global], names))
    end)
  end

  it("lets scripts set what the API sets: the trait flow, observation tracking, the main screen", function()
    local ui_fields = std.read_globals.ui.fields
    assert.is_false(ui_fields.hierarchyMode.read_only)
    assert.is_false(ui_fields.observationTracking.read_only)
    assert.is_false(ui_fields.Screen.fields.main.read_only)
    -- ... and each of them is settable in the live API.
    local mode = ui.hierarchyMode
    ui.hierarchyMode = mode
    ui.Screen.main.orientation = ui.Screen.main.orientation or "portrait"
  end)

  it("is the std the repository's .luacheckrc names", function()
    local config = setmetatable({ files = {}, stds = {} }, { __index = _G })
    assert(loadfile(LUACHECKRC, "t", config))()
    assert.are.equal("traitlab", config.std)
    assert.are.same(std.read_globals.ui, config.stds.traitlab.read_globals.ui)
  end)
end)
