-- docs/swiftui.md: SwiftUI environment keys, views, hosting, representables and bridging.

local Theme = traits.enum("MyAppTheme", { "standard", "pastel", "bold", "monochrome" })
traits.define { name = "MyAppTheme", default = Theme.standard, property = "myAppTheme" }

-- The talk's key: EnvironmentValues.myAppTheme, bridged to the trait.
local ThemeKey = swiftui.EnvironmentKey { name = "myAppTheme", default = "standard" }
swiftui.bridge(ThemeKey, {
  read = function(traitCollection) return traitCollection.myAppTheme end,
  write = function(mutableTraits, value) mutableTraits.myAppTheme = value end,
})
-- A key that stays on the SwiftUI side.
local AccentKey = swiftui.EnvironmentKey { name = "accent", default = "blue" }

local unique = 0
local function fresh(prefix)
  unique = unique + 1
  return prefix .. unique
end

local function window_with_root(screen)
  local scene = ui.WindowScene { screen = screen }
  local window = ui.Window { windowScene = scene }
  local root = ui.ViewController { name = "root" }
  window.rootViewController = root
  return scene, window, root
end

-- A view in a window hosting `swiftView` through a hosting configuration.
local function hosted(swiftView)
  local scene, window, root = window_with_root()
  local cell = ui.View { name = "cell" }
  root.view:addSubview(cell)
  cell.contentConfiguration = swiftui.HostingConfiguration(swiftView)
  ui.update()
  return scene, cell, root, window
end

-- A hosting controller as a window's root.
local function hosting_controller(rootView)
  local scene = ui.WindowScene {}
  local window = ui.Window { windowScene = scene }
  local host = ui.HostingController { name = "host", rootView = rootView }
  window.rootViewController = host
  ui.update()
  return scene, host, window
end

local function reader(name, key)
  return swiftui.View { name = name, body = function(env) return env[key] end }
end

describe("environment keys", function()
  it("define EnvironmentValues properties with a name and a default", function()
    assert.are.equal("myAppTheme", ThemeKey.name)
    assert.are.equal("standard", ThemeKey.default)
    assert.are.equal(Theme, ThemeKey.type)
    assert.is_true(ThemeKey.isBridged)
    assert.is_false(ThemeKey.isBuiltin)
    assert.is_false(AccentKey.isBridged)
    assert.are.equal("string", AccentKey.type)
    assert.are.equal("EnvironmentKey(myAppTheme)", tostring(ThemeKey))
  end)

  it("infer their type from the default, or take one", function()
    assert.are.equal("integer", swiftui.EnvironmentKey { name = fresh("count"), default = 3 }.type)
    assert.are.equal("number", swiftui.EnvironmentKey { name = fresh("ratio"), default = 0.5 }.type)
    assert.are.equal("boolean", swiftui.EnvironmentKey { name = fresh("flag"), default = false }.type)
    local optional = swiftui.EnvironmentKey { name = fresh("title"), type = "string" }
    assert.is_true(optional.isOptional)
    assert.is_nil(optional.default)
    local scheme = swiftui.EnvironmentKey { name = fresh("preferred"), type = swiftui.ColorScheme, default = "dark" }
    assert.are.equal(swiftui.ColorScheme, scheme.type)
  end)

  it("refuse a name already in use, bad fields and bad defaults", function()
    assert.error_matches(function() swiftui.EnvironmentKey { name = "myAppTheme", default = "x" } end,
      "environment key 'myAppTheme' is already defined")
    assert.error_matches(function() swiftui.EnvironmentKey { name = "colorScheme", default = "x" } end,
      "SwiftUI's own keys")
    assert.error_matches(function() swiftui.EnvironmentKey { name = fresh("k"), default = 1, defualt = 2 } end,
      "unknown field 'defualt'")
    assert.error_matches(function() swiftui.EnvironmentKey { default = 1 } end, "needs a 'name'")
    assert.error_matches(function() swiftui.EnvironmentKey { name = fresh("k") } end, "needs a default")
    assert.error_matches(function() swiftui.EnvironmentKey { name = "not valid", default = 1 } end,
      "not a valid environment key name")
    assert.error_matches(function() swiftui.EnvironmentKey { name = fresh("k"), type = "integer", default = "x" } end,
      "expects an integer")
  end)

  it("come with SwiftUI's value types", function()
    assert.are.equal("dark", swiftui.ColorScheme.dark)
    assert.are.same({ "light", "dark" }, swiftui.ColorScheme.cases)
    assert.are.equal("accessibility5", swiftui.DynamicTypeSize.accessibility5)
    assert.are.equal("increased", swiftui.ColorSchemeContrast.increased)
    assert.are.equal("compact", swiftui.UserInterfaceSizeClass.compact)
    assert.are.equal("rightToLeft", swiftui.LayoutDirection.rightToLeft)
    assert.are.equal("bold", swiftui.LegibilityWeight.bold)
  end)
end)

describe("environment values", function()
  it("read by property name or key, and unknown names are errors", function()
    local view = swiftui.View { name = "plain" }
    assert.are.equal("standard", view.environment.myAppTheme)
    assert.are.equal("standard", view.environment[ThemeKey])
    assert.are.equal("light", view.environment.colorScheme)
    assert.error_matches(function() return view.environment.myAppTheem end,
      "unknown environment key 'myAppTheem' %(did you mean 'myAppTheme'%?%)")
  end)

  it("are read-only, printable and iterable", function()
    local view = swiftui.View { name = "v" }
    view:environment("accent", "red")
    local _, cell = hosted(view)
    local env = view.environment
    assert.has_error(function() env.accent = "green" end)
    assert.matches('accent = "red"', tostring(env))
    local seen = {}
    for k, v in pairs(env) do seen[k] = v end
    assert.are.equal("red", seen.accent)
    assert.are.equal(cell.traitCollection.displayScale, seen.displayScale)
    assert.is_true(env == view.environment)
  end)
end)

describe("SwiftUI views", function()
  it("have a name, no rendering and the default environment before they are hosted", function()
    local v = swiftui.View { name = "CellView", body = function() return "blue" end }
    assert.are.equal("CellView", v.name)
    assert.is_nil(v.rendered)
    assert.are.equal(0, v.bodyCount)
    assert.is_false(v.isHosted)
    assert.are.equal('View "CellView"', tostring(v))
    assert.are.equal("standard", v.environment.myAppTheme)
  end)

  it("see their own and their ancestors' modifiers until they are hosted", function()
    local leaf = swiftui.View { name = "leaf" }
    local top = swiftui.View { name = "top", content = { leaf } }
    top:environment("accent", "red")
    leaf:environment("colorScheme", "dark")
    assert.are.equal("red", leaf.environment.accent)
    assert.are.equal("dark", leaf.environment.colorScheme)
    assert.are.equal("light", top.environment.colorScheme)
  end)

  it("check what they are made of", function()
    assert.error_matches(function() swiftui.View { body = "blue" } end, "body must be a function")
    assert.error_matches(function() swiftui.View { content = { 1 } } end, "content item 1 must be a SwiftUI view")
    assert.error_matches(function() swiftui.View { bodyy = function() end } end, "unknown field 'bodyy'")
    local child = swiftui.View { name = "child" }
    local parent = swiftui.View { content = { child } }
    assert.are.equal(child, parent.content[1])
    assert.error_matches(function() swiftui.View { content = { child } } end, "already content of")
    local loose = swiftui.View {}
    assert.error_matches(function() swiftui.View { content = { loose, loose } } end, "appears twice")
    assert.has_error(function() parent.rendered = 1 end)
    parent.name = "renamed"
    assert.are.equal("renamed", parent.name)
  end)

  it("run body when first hosted in a window, not before", function()
    local cell = swiftui.View { name = "CellView", body = function(env) return env.myAppTheme end }
    local view = ui.View { name = "cell" }
    view.contentConfiguration = swiftui.HostingConfiguration(cell)
    ui.update()
    assert.are.equal(0, cell.bodyCount)
    local _, _, root = window_with_root()
    root.view:addSubview(view)
    ui.update()
    assert.are.equal(1, cell.bodyCount)
    assert.are.equal("standard", cell.rendered)
    assert.is_true(cell.isHosted)
  end)

  it("re-run body only when a value it read changed", function()
    local cell = reader("CellView", "myAppTheme")
    local scene = hosted(cell)
    assert.are.equal(1, cell.bodyCount)
    scene.traitOverrides.userInterfaceStyle = "dark"       -- colorScheme changes; body never read it
    ui.update()
    assert.are.equal("dark", cell.environment.colorScheme)
    assert.are.equal(1, cell.bodyCount)
    scene.traitOverrides.myAppTheme = "pastel"
    ui.update()
    assert.are.equal(2, cell.bodyCount)
    assert.are.equal("pastel", cell.rendered)
    ui.update()
    assert.are.equal(2, cell.bodyCount)
  end)

  it("never re-run a body that read nothing", function()
    local still = swiftui.View { name = "still", body = function() return "fixed" end }
    local scene = hosted(still)
    scene.traitOverrides.myAppTheme = "bold"
    scene.traitOverrides.userInterfaceStyle = "dark"
    ui.update()
    assert.are.equal(1, still.bodyCount)
  end)

  it("track dependencies per view", function()
    local child = reader("child", "colorScheme")
    local parent = swiftui.View { name = "parent", content = { child }, body = function(env) return env.myAppTheme end }
    local scene = hosted(parent)
    assert.are.same({ 1, 1 }, { parent.bodyCount, child.bodyCount })
    scene.traitOverrides.userInterfaceStyle = "dark"
    ui.update()
    assert.are.same({ 1, 2 }, { parent.bodyCount, child.bodyCount })
    scene.traitOverrides.myAppTheme = "bold"
    ui.update()
    assert.are.same({ 2, 2 }, { parent.bodyCount, child.bodyCount })
  end)

  it("track only what the last run read", function()
    local branch = swiftui.View { name = "branch", body = function(env)
      if env.myAppTheme == "bold" then return env.accent end
      return "plain"
    end }
    branch:environment("accent", "red")
    local scene = hosted(branch)
    branch:environment("accent", "green")              -- not read yet
    ui.update()
    assert.are.equal(1, branch.bodyCount)
    scene.traitOverrides.myAppTheme = "bold"
    ui.update()
    assert.are.equal("green", branch.rendered)
    branch:environment("accent", "red")                -- read by the last run
    ui.update()
    assert.are.same({ 3, "red" }, { branch.bodyCount, branch.rendered })
  end)
end)

describe("body errors", function()
  it("propagate from ui.update with a traceback, and the next update finishes the others", function()
    local fail = true
    local broken = swiftui.View { name = "broken", body = function(env)
      if fail and env.myAppTheme == "bold" then error("no bold here") end
      return env.myAppTheme
    end }
    local after = reader("after", "myAppTheme")
    local scene = hosted(swiftui.View { content = { broken, after } })
    scene.traitOverrides.myAppTheme = "bold"
    local ok, err = pcall(ui.update)
    assert.is_false(ok)
    assert.matches("no bold here", err)
    assert.matches("traceback", err)
    assert.are.equal("standard", after.rendered)
    ui.update()
    assert.are.equal("bold", after.rendered)
    assert.are.equal(2, broken.bodyCount)                 -- the failed run is not repeated
    fail = false
    scene.traitOverrides.myAppTheme = "pastel"
    ui.update()
    assert.are.equal("pastel", broken.rendered)
  end)
end)

describe("re-entrant work", function()
  it("lets a body replace what its host shows", function()
    local _, _, root = window_with_root()
    local cell = ui.View { name = "cell" }
    root.view:addSubview(cell)
    local replacement = reader("replacement", "myAppTheme")
    local sibling = reader("sibling", "myAppTheme")
    local first = swiftui.View { name = "first", body = function()
      cell.contentConfiguration = swiftui.HostingConfiguration(replacement)
      return "replaced"
    end }
    cell.contentConfiguration = swiftui.HostingConfiguration(swiftui.View { content = { first, sibling } })
    ui.update()
    assert.are.equal("replaced", first.rendered)
    assert.are.equal(0, sibling.bodyCount)
    assert.are.equal("standard", replacement.rendered)
  end)

  it("lets a body update its host's traits at once", function()
    local scene, _, root = window_with_root()
    local cell = ui.View { name = "cell" }
    root.view:addSubview(cell)
    local eager = swiftui.View { name = "eager", body = function(env)
      cell.traitOverrides.myAppTheme = env.myAppTheme == "bold" and "monochrome" or "pastel"
      cell:updateTraitsIfNeeded()
      return env.myAppTheme
    end }
    cell.contentConfiguration = swiftui.HostingConfiguration(eager)
    ui.update()
    assert.are.same({ "pastel", 2 }, { eager.rendered, eager.bodyCount })  -- again in the same update
    scene.traitOverrides.myAppTheme = "bold"
    ui.update()
    assert.are.equal("pastel", eager.rendered)
    assert.are.equal("pastel", cell.traitCollection.myAppTheme)
  end)

  it("refuses content nested too deeply: 1000 views deep at most", function()
    local v = swiftui.View {}
    for _ = 2, 1000 do v = swiftui.View { content = { v } } end   -- a chain of 1000 views
    assert.error_matches(function() swiftui.View { content = { v } } end, "nested more than 1000 views deep")
  end)
end)

describe("environment modifiers", function()
  it("apply to the view and its content, nearest last", function()
    local leaf = reader("leaf", "accent")
    local middle = swiftui.View { name = "middle", content = { leaf } }
    local top = swiftui.View { name = "top", content = { middle } }
    top:environment("accent", "red")
    hosted(top)
    assert.are.equal("red", leaf.rendered)
    middle:environment("accent", "green")
    ui.update()
    assert.are.equal("green", leaf.rendered)
    assert.are.equal("red", top.environment.accent)
  end)

  it("override values bridged from traits and return the view", function()
    local cell = reader("cell", "myAppTheme")
    assert.are.equal(cell, cell:environment("myAppTheme", "bold"):environment(AccentKey, "red"))
    local scene = hosted(cell)
    scene.traitOverrides.myAppTheme = "pastel"
    ui.update()
    assert.are.equal("bold", cell.rendered)
    assert.are.equal(1, cell.bodyCount)
  end)

  it("refuse unknown keys and wrong values, changing nothing", function()
    local cell = reader("cell", "myAppTheme")
    hosted(cell)
    assert.error_matches(function() cell:environment("myAppTheem", "bold") end, "unknown environment key 'myAppTheem'")
    assert.error_matches(function() cell:environment("myAppTheme", "neon") end, "has no case 'neon'")
    assert.error_matches(function() cell:environment("myAppTheme", 3) end, "expects a MyAppTheme case")
    assert.error_matches(function() cell.environment("myAppTheme", "bold") end, "view:environment%(key, value%)")
    ui.update()
    assert.are.equal("standard", cell.environment.myAppTheme)
    assert.are.equal(1, cell.bodyCount)
  end)
end)

describe("hosting", function()
  it("in a view: the environment comes from the view's traits", function()
    local cell = reader("cell", "myAppTheme")
    local scene, view = hosted(cell)
    view.traitOverrides.myAppTheme = "monochrome"
    ui.update()
    assert.are.equal("monochrome", cell.rendered)
    assert.are.equal(cell, view.contentConfiguration.rootView)
    assert.are.equal(view, view.contentConfiguration.view)
    scene.traitOverrides.myAppTheme = "pastel"
    ui.update()
    assert.are.equal("monochrome", cell.rendered)
  end)

  it("in a view controller: rootView sees the controller's traits", function()
    local cell = reader("cell", "colorScheme")
    local scene, host = hosting_controller(cell)
    assert.are.equal(cell, host.rootView)
    assert.are.equal("light", cell.rendered)
    scene.traitOverrides.userInterfaceStyle = "dark"
    ui.update()
    assert.are.equal("dark", cell.rendered)
    assert.matches("HostingController", tostring(host))
  end)

  it("replace what they host", function()
    local first = reader("first", "myAppTheme")
    local second = reader("second", "myAppTheme")
    local _, host = hosting_controller(first)
    host.rootView = second
    assert.is_false(first.isHosted)
    ui.update()
    assert.are.equal(1, second.bodyCount)
    local view = ui.View {}
    view.contentConfiguration = swiftui.HostingConfiguration(first)
    view.contentConfiguration = nil
    assert.is_nil(view.contentConfiguration)
    assert.is_false(first.isHosted)
  end)

  it("in a subclass of ui.HostingController", function()
    local Host = ui.HostingController:subclass("SettingsHost", {
      viewDidLoad = function(self) self.loaded = true end,
    })
    local cell = reader("cell", "myAppTheme")
    local _, host = hosting_controller(cell)
    local custom = Host { rootView = swiftui.View {} }
    local window = ui.Window { windowScene = ui.WindowScene {} }
    window.rootViewController = custom
    ui.update()
    assert.is_true(custom.loaded)
    assert.matches("SettingsHost", tostring(custom))
    assert.is_true(custom.rootView.isHosted)
    assert.are.equal("standard", cell.rendered)
    assert.are.equal(cell, host.rootView)
  end)

  it("host a view in one place at a time", function()
    local cell = swiftui.View { name = "cell" }
    local config = swiftui.HostingConfiguration(cell)
    local a, b = ui.View { name = "a" }, ui.View { name = "b" }
    a.contentConfiguration = config
    assert.error_matches(function() b.contentConfiguration = config end, "already the content configuration of View \"a\"")
    assert.error_matches(function() ui.HostingController { rootView = cell } end, "already hosted")
    assert.error_matches(function() swiftui.HostingConfiguration(cell) end, "already hosted")
    assert.error_matches(function() b.contentConfiguration = cell end, "must be a swiftui.HostingConfiguration")
    local child = swiftui.View {}
    local _ = swiftui.View { content = { child } }
    assert.error_matches(function() swiftui.HostingConfiguration(child) end, "already content of")
    local host = ui.HostingController {}
    assert.error_matches(function() host.view.contentConfiguration = swiftui.HostingConfiguration(swiftui.View {}) end,
      "hosts its rootView")
    assert.error_matches(function() a.rootView = swiftui.View {} end, "has no property 'rootView'")
  end)
end)

describe("built-in bridges", function()
  local function environment_of(screenTraits)
    local scene = ui.WindowScene { screen = ui.Screen(screenTraits) }
    local window = ui.Window { windowScene = scene }
    local cell = swiftui.View { name = "probe" }
    local host = ui.HostingController { rootView = cell }
    window.rootViewController = host
    ui.update()
    return cell.environment
  end

  it("read system traits with SwiftUI's value names", function()
    local env = environment_of {
      userInterfaceStyle = "dark", preferredContentSizeCategory = "accessibilityExtraLarge",
      layoutDirection = "rightToLeft", horizontalSizeClass = "regular", verticalSizeClass = "compact",
      displayScale = 2, legibilityWeight = "bold", accessibilityContrast = "high",
    }
    assert.are.equal("dark", env.colorScheme)
    assert.are.equal("accessibility3", env.dynamicTypeSize)
    assert.are.equal("rightToLeft", env.layoutDirection)
    assert.are.equal("regular", env.horizontalSizeClass)
    assert.are.equal("compact", env.verticalSizeClass)
    assert.are.equal(2, env.displayScale)
    assert.are.equal("bold", env.legibilityWeight)
    assert.are.equal("increased", env.colorSchemeContrast)
  end)

  it("read unspecified traits as SwiftUI's defaults", function()
    local env = environment_of {}
    assert.are.equal("light", env.colorScheme)
    assert.are.equal("large", env.dynamicTypeSize)
    assert.are.equal("leftToRight", env.layoutDirection)
    assert.is_nil(env.horizontalSizeClass)
    assert.is_nil(env.verticalSizeClass)
    assert.are.equal(1, env.displayScale)
    assert.is_nil(env.legibilityWeight)
    assert.are.equal("standard", env.colorSchemeContrast)
  end)

  it("cannot be bridged again", function()
    assert.error_matches(function()
      swiftui.bridge("colorScheme", { read = function() end, write = function() end })
    end, "built in and already bridged to the trait 'userInterfaceStyle'")
  end)
end)

describe("custom bridges", function()
  it("carry a scene override to a SwiftUI view (the talk's cell)", function()
    local cell = swiftui.View { name = "CellView",
      body = function(env) return env.myAppTheme == "monochrome" and "gray" or "blue" end }
    local scene = hosted(cell)
    assert.are.equal("blue", cell.rendered)
    scene.traitOverrides.myAppTheme = "monochrome"
    ui.update()
    assert.are.equal("gray", cell.rendered)
    assert.are.equal("monochrome", cell.environment.myAppTheme)
  end)

  -- A bridge's read raising a value that is not a string: the update's error
  -- names the key and shows the value as lua.c would (its __tostring), and
  -- the host keeps nothing of it afterwards.
  it("report an error value a read raised, and keep nothing of it", function()
    local key = swiftui.EnvironmentKey { name = fresh("raising"), default = "a" }
    local weak = setmetatable({}, { __mode = "v" })
    local armed = true   -- (once: the bridge stays, and later hosts read it too)
    swiftui.bridge(key, { read = function()
      if not armed then return "a" end
      armed = false
      local e = setmetatable({}, { __tostring = function() return "read broke" end })
      weak[1] = e
      error(e)
    end, write = function() end })
    local ok, err = pcall(hosted, reader(fresh("cell"), key.name))
    assert.is_false(ok)
    assert.matches("failed to read: read broke", err)
    collectgarbage(); collectgarbage()
    assert.is_nil(weak[1])
  end)

  it("leave unbridged keys on the SwiftUI side", function()
    traits.define { name = "Accent", default = "blue", property = "accentTrait" }
    local cell = reader("cell", "accent")
    local scene, view = hosted(cell)
    scene.traitOverrides.accentTrait = "red"
    ui.update()
    assert.are.equal("blue", cell.rendered)
    local vc = ui.ViewController {}
    local rep = swiftui.ViewControllerRepresentable { makeViewController = function() return vc end }
    local outer = swiftui.View { content = { rep } }
    outer:environment("accent", "green")
    view.contentConfiguration = swiftui.HostingConfiguration(outer)
    ui.update()
    assert.are.equal("green", rep.environment.accent)
    assert.are.equal("red", vc.traitCollection.accentTrait)
    assert.is_false(vc.traitOverrides:contains("accentTrait"))
  end)

  it("can be bridged once, with both functions", function()
    local key = swiftui.EnvironmentKey { name = fresh("once"), default = 0 }
    assert.error_matches(function() swiftui.bridge(key, { read = function() return 0 end }) end, "needs a 'write' function")
    assert.error_matches(function() swiftui.bridge(key, { read = 1, write = 2 }) end, "needs a 'read' function")
    assert.error_matches(function()
      swiftui.bridge(key, { read = function() end, write = function() end, reed = 1 })
    end, "unknown field 'reed'")
    assert.is_false(key.isBridged)
    assert.are.equal(key, swiftui.bridge(key.name, { read = function() return 0 end, write = function() end }))
    assert.error_matches(function()
      swiftui.bridge(key, { read = function() return 0 end, write = function() end })
    end, "already bridged")
    assert.error_matches(function() swiftui.bridge("nokey", {}) end, "unknown environment key 'nokey'")
  end)

  it("fail clearly when read returns a wrong type, and apply nothing", function()
    local trait = traits.define { name = fresh("Level"), default = 0 }
    local key = swiftui.EnvironmentKey { name = fresh("level"), default = 0 }
    swiftui.bridge(key, {
      read = function(tc) local v = tc[trait]; if v == 2 then return "two" end; return v end,
      write = function(m, v) m[trait] = v end,
    })
    local cell = reader("cell", key.name)
    local scene = hosted(cell)
    scene.traitOverrides[trait] = 1
    ui.update()
    assert.are.equal(1, cell.rendered)
    scene.traitOverrides[trait] = 2
    assert.error_matches(function() ui.update() end,
      "the bridge of environment key '" .. key.name .. "' read the string \"two\", but the key expects an integer")
    assert.are.equal(1, cell.environment[key])
    assert.are.equal(1, cell.rendered)
    ui.update()                                           -- the next update works
    scene.traitOverrides[trait] = 3
    ui.update()
    assert.are.equal(3, cell.rendered)
  end)

  it("fail clearly when write raises, and apply nothing", function()
    local trait = traits.define { name = fresh("Mode"), default = "off" }
    local key = swiftui.EnvironmentKey { name = fresh("mode"), default = "off" }
    swiftui.bridge(key, {
      read = function(tc) return tc[trait] end,
      write = function(m, v) if v == "broken" then error("cannot write " .. v) end; m[trait] = v end,
    })
    local vc = ui.ViewController {}
    local rep = swiftui.ViewControllerRepresentable { makeViewController = function() return vc end }
    local top = swiftui.View { content = { rep } }
    top:environment(key, "on")
    hosted(top)
    assert.are.equal("on", vc.traitCollection[trait])
    top:environment(key, "broken")
    top:environment("colorScheme", "dark")
    assert.error_matches(function() ui.update() end,
      "the bridge of environment key '" .. key.name .. "' failed to write: .*cannot write broken")
    assert.are.equal("on", rep.environment[key])
    assert.are.equal("on", vc.traitOverrides[trait])
    assert.is_false(vc.traitOverrides:contains("userInterfaceStyle"))
    ui.update()
    top:environment(key, "fixed")
    ui.update()
    assert.are.equal("fixed", vc.traitCollection[trait])
    assert.are.equal("dark", vc.traitCollection.userInterfaceStyle)
  end)
end)

describe("representables", function()
  it("make their view controller once, when first hosted, and update it when the environment changes", function()
    local calls = {}
    local settingsVC = ui.ViewController { name = "settings" }
    local rep = swiftui.ViewControllerRepresentable {
      makeViewController = function(context)
        calls[#calls + 1] = "make " .. context.environment.myAppTheme
        return settingsVC
      end,
      updateViewController = function(vc, context)
        calls[#calls + 1] = "update " .. tostring(vc.name) .. " " .. context.environment.myAppTheme
      end,
    }
    local settings = swiftui.View { name = "Settings", content = { rep } }
    assert.is_nil(rep.viewController)
    local scene, host = hosting_controller(settings)
    assert.are.same({ "make standard", "update settings standard" }, calls)
    assert.are.equal(settingsVC, rep.viewController)
    assert.are.equal(host, settingsVC.parent)
    assert.are.equal(host.view, settingsVC.view.superview)
    scene.traitOverrides.myAppTheme = "pastel"
    ui.update()
    assert.are.same({ "make standard", "update settings standard", "update settings pastel" }, calls)
    ui.update()
    assert.are.equal(3, #calls)
  end)

  it("hand a SwiftUI .environment value to UIKit content (the talk's settings)", function()
    local seen = {}
    local settingsVC = ui.ViewController { name = "settings",
      traitCollectionDidChange = function(self) seen[#seen + 1] = self.traitCollection.myAppTheme end }
    local rep = swiftui.ViewControllerRepresentable { makeViewController = function() return settingsVC end }
    local settings = swiftui.View { name = "Settings", content = { rep } }
    settings:environment("myAppTheme", "standard")
    local scene = ui.WindowScene {}
    scene.traitOverrides.myAppTheme = "pastel"
    local window = ui.Window { windowScene = scene }
    window.rootViewController = ui.HostingController { rootView = settings }
    ui.update()
    assert.are.equal("standard", settingsVC.traitCollection.myAppTheme)
    assert.are.equal("standard", settingsVC.view.traitCollection.myAppTheme)
    assert.are.equal("pastel", window.traitCollection.myAppTheme)
    assert.are.equal("standard", settingsVC.traitOverrides.myAppTheme)
    settings:environment("myAppTheme", "bold")
    ui.update()
    assert.are.equal("bold", settingsVC.traitCollection.myAppTheme)
    assert.are.equal("bold", seen[#seen])
  end)

  it("map built-in keys back to system traits", function()
    local vc = ui.ViewController {}
    local rep = swiftui.ViewControllerRepresentable { makeViewController = function() return vc end }
    rep:environment("colorScheme", "dark"):environment("dynamicTypeSize", "accessibility5")
       :environment("horizontalSizeClass", "regular"):environment("colorSchemeContrast", "increased")
       :environment("layoutDirection", "rightToLeft"):environment("legibilityWeight", "bold")
       :environment("displayScale", 2)
    hosting_controller(swiftui.View { content = { rep } })
    local tc = vc.traitCollection
    assert.are.equal("dark", tc.userInterfaceStyle)
    assert.are.equal("accessibilityExtraExtraExtraLarge", tc.preferredContentSizeCategory)
    assert.are.equal("regular", tc.horizontalSizeClass)
    assert.are.equal("high", tc.accessibilityContrast)
    assert.are.equal("rightToLeft", tc.layoutDirection)
    assert.are.equal("bold", tc.legibilityWeight)
    assert.are.equal(2, tc.displayScale)
  end)

  it("override nothing the environment does not change, so UIKit content follows its traits", function()
    local vc = ui.ViewController {}
    local rep = swiftui.ViewControllerRepresentable { makeViewController = function() return vc end }
    local scene = hosting_controller(swiftui.View { content = { rep } })
    assert.are.same({}, (function() local t = {} for k in pairs(vc.traitOverrides) do t[#t + 1] = k end return t end)())
    scene.traitOverrides.userInterfaceStyle = "dark"
    scene.traitOverrides.myAppTheme = "bold"
    ui.update()
    assert.are.equal("dark", vc.traitCollection.userInterfaceStyle)
    assert.are.equal("bold", vc.traitCollection.myAppTheme)
    rep:environment("colorScheme", "light")
    ui.update()
    assert.are.equal("light", vc.traitCollection.userInterfaceStyle)
    rep:environment("colorScheme", "dark")                -- same as the traits again: the override goes
    ui.update()
    assert.is_false(vc.traitOverrides:contains("userInterfaceStyle"))
  end)

  it("place a UIKit view for a ViewRepresentable", function()
    local label = ui.View { name = "label" }
    local updates = 0
    local rep = swiftui.ViewRepresentable {
      makeView = function() return label end,
      updateView = function(view, context) updates = updates + 1; view.scheme = context.environment.colorScheme end,
    }
    rep:environment("myAppTheme", "monochrome")
    local _, cell = hosted(swiftui.View { content = { rep } })
    assert.are.equal(cell, label.superview)
    assert.are.equal(label, rep.uiView)
    assert.are.equal("monochrome", label.traitCollection.myAppTheme)
    assert.are.same({ 1, "light" }, { updates, label.scheme })
  end)

  it("inherit in legacy mode through the hosting controller", function()
    ui.hierarchyMode = "legacy"
    local ok, err = pcall(function()
      local vc = ui.ViewController {}
      local rep = swiftui.ViewControllerRepresentable { makeViewController = function() return vc end }
      rep:environment("myAppTheme", "bold")
      local _, host = hosting_controller(swiftui.View { content = { rep } })
      assert.are.equal(host, vc.traitParent)
      assert.are.equal("bold", vc.traitCollection.myAppTheme)
    end)
    ui.hierarchyMode = "ios17"
    assert(ok, err)
  end)

  it("refuse what their make function should not return", function()
    local rep = swiftui.ViewControllerRepresentable { makeViewController = function() return {} end }
    local scene = ui.WindowScene {}
    local window = ui.Window { windowScene = scene }
    window.rootViewController = ui.HostingController { rootView = swiftui.View { content = { rep } } }
    assert.error_matches(function() ui.update() end, "makeViewController of ViewControllerRepresentable must return a ui.ViewController, got table")
    ui.update()
    local wrong = swiftui.ViewRepresentable { makeView = function() return ui.ViewController {} end }
    window.rootViewController = ui.HostingController { rootView = wrong }
    assert.error_matches(function() ui.update() end, "makeView of ViewRepresentable must return a view")
    local taken = ui.ViewController { name = "taken" }
    local owner = ui.ViewController { name = "owner" }
    owner:addChild(taken)
    local greedy = swiftui.ViewControllerRepresentable { makeViewController = function() return taken end }
    window.rootViewController = ui.HostingController { rootView = greedy }
    assert.error_matches(function() ui.update() end, "returned ViewController \"taken\", which is already a child of")
    assert.is_nil(greedy.viewController)
    assert.are.equal(owner, taken.parent)
    assert.error_matches(function() swiftui.ViewRepresentable { makeViewController = function() end } end,
      "unknown field 'makeViewController'")
    assert.error_matches(function() swiftui.ViewControllerRepresentable {} end, "needs a 'makeViewController' function")
  end)

  it("leave the tree with the view that hosted them", function()
    local vc = ui.ViewController {}
    local rep = swiftui.ViewControllerRepresentable { makeViewController = function() return vc end }
    local _, host = hosting_controller(swiftui.View { content = { rep } })
    assert.are.equal(host, vc.parent)
    host.rootView = swiftui.View {}
    assert.is_nil(vc.parent)
    assert.is_nil(vc.view.superview)
    assert.is_nil(rep.viewController)
  end)
end)

describe("the update order", function()
  it("is UIKit ancestors, then SwiftUI views, then UIKit content, all in one update", function()
    local order = {}
    local content = ui.ViewController { name = "content",
      traitCollectionDidChange = function(self) order[#order + 1] = "content " .. self.traitCollection.myAppTheme end }
    local rep = swiftui.ViewControllerRepresentable { makeViewController = function() return content end }
    local top = swiftui.View { name = "top", content = { rep },
      body = function(env) order[#order + 1] = "body " .. env.myAppTheme end }
    local scene, host = hosting_controller(top)
    host.view.traitCollectionDidChange = function(self) order[#order + 1] = "host " .. self.traitCollection.myAppTheme end
    order = {}
    scene.traitOverrides.myAppTheme = "monochrome"
    ui.update()
    assert.are.same({ "host monochrome", "body monochrome", "content monochrome" }, order)
  end)

  it("settles a nested host inside a representable in the same update", function()
    local inner = reader("inner", "myAppTheme")
    local innerHost = ui.HostingController { rootView = inner }
    local rep = swiftui.ViewControllerRepresentable { makeViewController = function() return innerHost end }
    local top = swiftui.View { content = { rep } }
    top:environment("myAppTheme", "pastel")
    local scene = hosting_controller(top)
    assert.are.equal("pastel", inner.rendered)
    top:environment("myAppTheme", "bold")
    ui.update()
    assert.are.equal("bold", inner.rendered)
    scene.traitOverrides.myAppTheme = "monochrome"
    ui.update()
    assert.are.equal("bold", inner.rendered)
  end)
end)

describe("plugins", function()
  it("define keys and bridges again when they reload", function()
    local dir = os.tmpname()
    os.remove(dir)
    assert(os.execute("mkdir -p " .. dir))
    local function write(theme)
      local f = assert(io.open(dir .. "/looks.lua", "w"))
      f:write(([[
return {
  name = "looks", version = "1.0.0",
  setup = function(api)
    local key = api.swiftui.EnvironmentKey { name = "looks", default = %q }
    api.swiftui.bridge(key, { read = function(tc) return tc.myAppTheme .. "!" end, write = function() end })
  end,
}]]):format(theme))
      f:close()
    end
    write("plain")
    plugins.addPath(dir)
    plugins.load("looks")
    local cell = reader("cell", "looks")
    local scene = hosted(cell)
    assert.are.equal("standard!", cell.rendered)
    write("fancy")
    plugins.reload("looks")
    assert.are.equal("fancy", swiftui.View {}.environment.looks)   -- the new default
    scene.traitOverrides.myAppTheme = "bold"
    ui.update()
    assert.are.equal("bold!", cell.rendered)
    os.remove(dir .. "/looks.lua")
    os.remove(dir)
  end)

  it("define keys again when a failed load is tried again", function()
    local dir = os.tmpname()
    os.remove(dir)
    assert(os.execute("mkdir -p " .. dir))
    local function write(fail)
      local f = assert(io.open(dir .. "/shaky.lua", "w"))
      f:write(([[
return {
  name = "shaky", version = "1.0.0",
  setup = function(api)
    local key = api.swiftui.EnvironmentKey { name = "shaky", default = 1 }
    api.swiftui.bridge(key, { read = function() return 2 end, write = function() end })
    if %s then error("setup failed") end
  end,
}]]):format(tostring(fail)))
      f:close()
    end
    write(true)
    plugins.addPath(dir)
    assert.error_matches(function() plugins.load("shaky") end, "setup failed")
    write(false)
    plugins.load("shaky")
    local cell = reader("cell", "shaky")
    hosted(cell)
    assert.are.equal(2, cell.rendered)
    os.remove(dir .. "/shaky.lua")
    os.remove(dir)
  end)
end)

describe("memory", function()
  it("collects hosts whose views and representables capture them", function()
    collectgarbage()
    collectgarbage()
    local before = ui.stats().environments
    local function make()
      local scene = ui.WindowScene {}
      local window = ui.Window { windowScene = scene }
      local host = ui.HostingController {}
      local content = ui.ViewController {}
      local rep = swiftui.ViewControllerRepresentable {
        makeViewController = function() return content end,
        updateViewController = function(vc) return host, vc end,
      }
      local top = swiftui.View { content = { rep }, body = function(env) return host, content, env.myAppTheme end }
      host.rootView = top
      content.owner = rep
      window.rootViewController = host
      local cell = ui.View {}
      host.view:addSubview(cell)
      local inner = swiftui.View { body = function() return cell, top end }
      cell.contentConfiguration = swiftui.HostingConfiguration(inner)
      ui.update()
      assert.are.equal(1, inner.bodyCount)
      scene:disconnect()
    end
    make()
    ui.update()
    collectgarbage()
    collectgarbage()
    assert.are.equal(before, ui.stats().environments)
  end)
end)
