-- Plugins, requirements, conflicts and transactional reload (docs/guide.md,
-- "Plugins").

local dir = os.tmpname()
os.remove(dir)
assert(os.execute("mkdir -p " .. dir))

local function write(name, source)
  local f = assert(io.open(dir .. "/" .. name, "w"))
  f:write(source)
  f:close()
end

local function plugin(name, body, extra)
  write(name .. ".lua", ([[
return {
  name = %q, version = "1.0.0", description = "test plugin",
  %s
  setup = function(api) %s end,
}]]):format(name, extra or "", body))
end

describe("plugins", function()
  setup(function() plugins.addPath(dir) end)

  it("must return a manifest table, and the error says what came back", function()
    for source, kind in pairs { ["return 5"] = "number", ["return true"] = "boolean", ["return nil"] = "nil", ["return 'x'"] = "string" } do
      local name = "bad_manifest_" .. kind
      write(name .. ".lua", source)
      local ok, err = pcall(plugins.load, name)
      assert.is_false(ok)
      assert.matches("must return a manifest table, got " .. kind, err)
    end
  end)

  it("load once and return the manifest", function()
    plugin("alpha", [[api.traits.define { name = "AlphaTrait", default = 1, identifier = "com.test.alpha" }]])
    local m = plugins.load("alpha")
    assert.are.equal("alpha", m.name)
    assert.are.equal(m, plugins.load("alpha"))
    assert.are.equal(1, traits.collection {}.alphaTrait)
    local found
    for _, p in ipairs(plugins.list()) do
      if p.name == "alpha" then found = p end
    end
    assert.are.equal("1.0.0", found.version)
    assert.matches("alpha.lua$", found.path)
  end)

  it("load requirements first", function()
    local order = {}
    _G.plugin_order = order
    plugin("base", [[table.insert(plugin_order, "base")]])
    plugin("top", [[table.insert(plugin_order, "top")]], [[requires = { "base" },]])
    plugins.load("top")
    assert.are.same({ "base", "top" }, order)
  end)

  it("refuse a missing requirement, naming it", function()
    plugin("needy", "", [[requires = { "nowhere" },]])
    local ok, err = pcall(plugins.load, "needy")
    assert.is_false(ok)
    assert.matches("nowhere", err)
    assert.matches("needy", err)
  end)

  it("refuse a requirement cycle, naming the plugins", function()
    plugin("ping", "", [[requires = { "pong" },]])
    plugin("pong", "", [[requires = { "ping" },]])
    local ok, err = pcall(plugins.load, "ping")
    assert.is_false(ok)
    assert.matches("ping %-> pong %-> ping", err)
  end)

  it("refuse two plugins defining the same identifier, naming both", function()
    plugin("one", [[api.traits.define { name = "SharedA", default = 1, identifier = "com.test.shared" }]])
    plugin("two", [[api.traits.define { name = "SharedB", default = 1, identifier = "com.test.shared" }]])
    plugins.load("one")
    local ok, err = pcall(plugins.load, "two")
    assert.is_false(ok)
    assert.matches("one", err)
    assert.matches("two", err)
    assert.is_nil(traits.named("SharedB"))
  end)

  it("report a missing plugin with the search path", function()
    local ok, err = pcall(plugins.load, "no_such_plugin")
    assert.is_false(ok)
    assert.matches("no_such_plugin", err)
    assert.matches("not found", err)
  end)
end)

describe("plugins.reload", function()
  setup(function() plugins.addPath(dir) end)

  it("replaces definitions in place and keeps valid overrides", function()
    plugin("mode", [[
      local E = api.traits.enum("ModeEnum", { "off", "on" })
      api.traits.define { name = "ModeT", type = E, default = "off", identifier = "com.test.mode" }]])
    plugins.load("mode")
    local Mode = traits.named("ModeT")
    local scene = ui.WindowScene {}
    local window = ui.Window { windowScene = scene }
    local root = ui.ViewController {}
    window.rootViewController = root
    root.traitOverrides[Mode] = "on"
    ui.update()
    assert.are.equal("on", root.view.traitCollection[Mode])

    -- Same identifier, a new case and a new default.
    plugin("mode", [[
      local E = api.traits.enum("ModeEnum", { "off", "on", "auto" })
      api.traits.define { name = "ModeT", type = E, default = "auto", identifier = "com.test.mode" }]])
    plugins.reload("mode")
    assert.are.equal(Mode, traits.named("ModeT"))
    assert.are.equal("auto", Mode.default)
    assert.are.equal("on", root.traitOverrides[Mode])
    ui.update()
    assert.are.equal("on", root.view.traitCollection[Mode])
    assert.are.equal("auto", window.traitCollection[Mode])
  end)

  it("drops overrides that no longer fit and says so", function()
    plugin("level", [[
      local E = api.traits.enum("LevelEnum", { "low", "high" })
      api.traits.define { name = "LevelT", type = E, default = "low", identifier = "com.test.level" }]])
    plugins.load("level")
    local Level = traits.named("LevelT")
    local scene = ui.WindowScene {}
    scene.traitOverrides[Level] = "high"
    plugin("level", [[
      local E = api.traits.enum("LevelEnum", { "low", "medium" })
      api.traits.define { name = "LevelT", type = E, default = "low", identifier = "com.test.level" }]])
    local _, dropped = plugins.reload("level")
    assert.is_false(scene.traitOverrides:contains(Level))
    assert.are.equal(1, #dropped)
    assert.matches("LevelT", dropped[1])
  end)

  -- A reload replaces the plugin's definitions (docs/guide.md, "Plugins"), and
  -- reading an unknown property of a collection is an error (docs/guide.md,
  -- "Traits and trait collections"): a trait the plugin no longer defines is gone by every name, however its
  -- name was used before the reload.
  it("forgets a dropped trait's property name everywhere", function()
    plugin("gone", [[api.traits.define { name = "GoneT", default = 1, identifier = "com.test.gone", property = "goneT" }]])
    plugins.load("gone")
    local scene = ui.WindowScene {}
    local window = ui.Window { windowScene = scene }
    window.rootViewController = ui.ViewController {}
    local root = window.rootViewController
    root.traitOverrides.goneT = 5
    ui.update()
    assert.are.equal(5, root.traitCollection.goneT)
    assert.are.equal(1, traits.collection {}.goneT)
    plugin("gone", "")
    local _, dropped = plugins.reload("gone")
    ui.update()
    assert.are.equal(1, #dropped)
    assert.has_error(function() return root.traitCollection.goneT end, nil)
    local ok, err = pcall(function() return traits.collection {}.goneT end)
    assert.is_false(ok)
    assert.matches("unknown trait property 'goneT'", err)
    assert.has_error(function() root.traitOverrides.goneT = 2 end)
    -- The name is free for a new definition, which it then names.
    traits.define { name = "GoneAgain", default = "s", property = "goneT" }
    assert.are.equal("x", traits.collection { goneT = "x" }.goneT)
  end)

  it("changes nothing when the reload fails", function()
    plugin("fragile", [[api.traits.define { name = "FragileT", default = 1, identifier = "com.test.fragile" }]])
    plugins.load("fragile")
    local T = traits.named("FragileT")
    plugin("fragile", [[
      api.traits.define { name = "FragileT", default = 2, identifier = "com.test.fragile" }
      api.traits.define { name = "FragileExtra", default = 0 }
      error("setup broke")]])
    local ok, err = pcall(plugins.reload, "fragile")
    assert.is_false(ok)
    assert.matches("setup broke", err)
    assert.are.equal(1, T.default)
    assert.is_nil(traits.named("FragileExtra"))
    -- Nor do the enums its setup defined: a default that is one of their cases is a string.
    plugin("fragile", [[
      api.traits.enum("FragileLeak", { "zz" })
      error("setup broke again")]])
    assert.is_false(pcall(plugins.reload, "fragile"))
    write("fragile_new.lua", [[return { name = "fragile_new", setup = function(api)
      api.traits.enum("FragileNewLeak", { "yy" }); error("no") end }]])
    assert.is_false(pcall(plugins.load, "fragile_new"))
    assert.are.equal("string", traits.define { name = "AfterLeak", default = "zz" }.type)
    assert.are.equal("string", traits.define { name = "AfterNewLeak", default = "yy" }.type)
    assert.has_error(function() plugins.reload("never_loaded") end)
  end)
end)

describe("example plugins", function()
  it("load from examples/plugins with their requirement", function()
    plugins.addPath("examples/plugins")
    plugins.load("featureflags")
    assert.are.equal("standard", traits.collection {}.myAppTheme)
    assert.is_false(traits.collection {}.newCheckoutEnabled)
  end)
end)
