-- A catalogue of bad input across the public Lua API. Every case must be a Lua
-- error whose message names what was wrong; afterwards the engine must still
-- build, update and report a consistent tree.

local Theme = traits.enum("BadTheme", { "standard", "pastel" })
local T = traits.define { name = "BadThemeTrait", default = Theme.standard, property = "badTheme" }
local Count = traits.define { name = "BadCount", default = 0 }

local function stage()
  local scene = ui.WindowScene {}
  local window = ui.Window { windowScene = scene }
  local root = ui.ViewController { name = "root" }
  window.rootViewController = root
  return scene, window, root
end

local function in_window(callbacks)
  local scene, _, root = stage()
  local v = ui.View(callbacks or {})
  root.view:addSubview(v)
  return scene, root, v
end

-- { name, function that must fail, Lua pattern the message must match }
local cases = {
  -- traits.enum
  { "enum without a name", function() traits.enum(nil, { "a" }) end, "string expected" },
  { "enum with a number name", function() traits.enum(5, { "a" }) end, "string expected" },
  { "enum without cases", function() traits.enum("E1", nil) end, "table expected" },
  { "enum with no cases", function() traits.enum("E2", {}) end, "one or more cases" },
  { "enum with a duplicate case", function() traits.enum("E3", { "a", "a" }) end, "appears twice" },
  { "enum with a reserved case", function() traits.enum("E4", { "cases" }) end, "cannot be a case name" },
  { "enum with a non-string case", function() traits.enum("E5", { {} }) end, "case 1" },
  { "unknown enum case", function() return Theme.neon end, "no case 'neon'" },
  { "writing an enum", function() Theme.extra = "x" end, "read%-only" },
  -- traits.define
  { "define without a table", function() traits.define("Name") end, "table expected" },
  { "define without a name", function() traits.define { default = 1 } end, "name" },
  { "define with an empty name", function() traits.define { name = "", default = 1 } end, "name" },
  { "define without a default or type", function() traits.define { name = "NoDefault" } end, "default" },
  -- Trait values are text: a repair would make "\255" and "\254" the same value.
  { "a string value that is not UTF-8", function() traits.collection { [traits.define { name = "Utf1", default = "" }] = "ab\255" } end, "valid UTF%-8 text %(this one is not at byte 3%)" },
  { "a surrogate encoded in a string value", function() traits.collection { [traits.define { name = "Utf2", default = "" }] = "\xed\xa0\x80" } end, "valid UTF%-8" },
  { "a table key that is not UTF-8", function() traits.collection { [traits.define { name = "Utf3", default = {} }] = { ["k\200"] = 1 } } end, "valid UTF%-8" },
  { "JSON that is not UTF-8", function() traits.decode('{"com.x":"\255"}') end, "a JSON document must be valid UTF%-8 text %(this one is not at byte 11%)" },
  { "an enum case that is not UTF-8", function() traits.enum("Utf5", { "a\255", "b" }) end, "case 1 must be valid UTF%-8 text" },
  { "an override that is not UTF-8", function() ui.View {}.traitOverrides[traits.define { name = "Utf4", default = "" }] = "\254" end, "valid UTF%-8" },
  { "define with a reserved property", function() traits.define { name = "Meta", default = 1, property = "__index" } end, "'__index' is reserved" },
  { "define with a reserved name as its property", function() traits.define { name = "__Meta", default = 1 } end, "'__Meta' is reserved" },
  { "define with an empty property", function() traits.define { name = "EmptyProp", default = 1, property = "" } end, "must not be empty" },
  { "define with a function default", function() traits.define { name = "FnDefault", default = print } end, "plain data" },
  { "define with an unknown type", function() traits.define { name = "BadType", type = "colour" } end, "unknown type 'colour'" },
  { "define with a typo'd field", function() traits.define { name = "Typo", default = 1, identifer = "x" } end, "unknown field 'identifer'" },
  { "define with a default of the wrong type", function() traits.define { name = "Mismatch", type = "integer", default = "x" } end, "expects an integer" },
  { "define with a reserved property", function() traits.define { name = "Encode", default = 1, property = "encode" } end, "reserved" },
  { "define with an invalid property", function() traits.define { name = "Bad", default = 1, property = "1abc" } end, "not a valid trait property" },
  { "define with a duplicate property", function() traits.define { name = "BadThemeTrait2", default = 1, property = "badTheme" } end, "already used" },
  { "define with a non-boolean affectsColorAppearance", function() traits.define { name = "Aff", default = 1, affectsColorAppearance = "yes" } end, "must be a boolean" },
  { "writing a definition field", function() T.default = "pastel" end, "read%-only" },
  { "reading an unknown definition field", function() return T.colour end, "no field 'colour'" },
  -- values
  { "string for an integer trait", function() traits.collection { [Count] = "3" } end, "BadCount.*integer" },
  { "fractional number for an integer trait", function() traits.collection { [Count] = 2.5 } end, "BadCount.*integer" },
  { "nil for a non-optional trait", function() traits.collection(function(t) t[Count] = nil end) end, "BadCount" },
  { "unknown enum value", function() traits.collection { [T] = "neon" } end, "standard, pastel" },
  { "function inside a table value", function() traits.collection { [traits.define { name = "Tbl", default = {} }] = { print } } end, "plain data" },
  { "userdata key in a table value", function() traits.collection { [traits.define { name = "Tbl2", default = {} }] = { [ui.View {}] = 1 } } end, "keys" },
  { "deeply nested table value", function()
      local t = {}
      local cur = t
      for _ = 1, 100 do cur[1] = {}; cur = cur[1] end
      traits.collection { [traits.define { name = "Deep", default = {} }] = t }
    end, "nested too deeply" },
  { "cyclic table value", function()
      local t = {}; t[1] = t
      traits.collection { [traits.define { name = "Cyclic", default = {} }] = t }
    end, "nested too deeply" },
  -- collections
  { "collection from a number", function() traits.collection(5) end, "function or table expected" },
  { "unknown property in a collection table", function() traits.collection { colour = 1 } end, "unknown trait property 'colour'" },
  { "reading an unknown property", function() return traits.collection {}.horizontalSizeClas end, "did you mean" },
  { "non-trait key", function() return traits.collection {}[42] end, "trait definition or property name" },
  { "writing a collection", function() traits.collection {}.userInterfaceStyle = "dark" end, "immutable" },
  { "changedTraits with a non-collection", function() traits.collection {}:changedTraits(5) end, "TraitCollection expected" },
  { "modifyingTraits without a function", function() traits.collection {}:modifyingTraits(5) end, "function expected" },
  { "error inside a mutation function", function() traits.collection(function() error("mutation failed") end) end, "mutation failed" },
  { "mutable traits used after their function", function()
      local kept
      traits.collection(function(t) kept = t end)
      kept.userInterfaceStyle = "dark"
    end, "only be used inside" },
  { "decoding broken JSON", function() traits.decode('{"a":') end, "offset" },
  { "decoding a non-object", function() traits.decode("[1, 2]") end, "object" },
  { "decoding an unknown identifier", function() traits.decode('{"com.nobody": 1}') end, "com.nobody" },
  { "decoding a wrong value type", function() traits.decode('{"UIKit.displayScale": "big"}') end, "DisplayScale" },
  { "decoding a non-string", function() traits.decode(nil) end, "string expected" },
  -- environments and the tree
  { "adding a number as a subview", function() ui.View {}:addSubview(42) end, "View expected" },
  { "adding a view to itself", function() local v = ui.View {}; v:addSubview(v) end, "itself" },
  { "adding an ancestor", function()
      local a, b = ui.View {}, ui.View {}
      a:addSubview(b); b:addSubview(a)
    end, "ancestor" },
  { "adding a window as a subview", function() ui.View {}:addSubview(ui.Window {}) end, "window" },
  { "wrong self", function() ui.View.addSubview(42, ui.View {}) end, "bad self" },
  { "calling a view method on a controller", function() ui.View.setNeedsLayout(ui.ViewController {}) end, "bad self" },
  { "insertSubview with a bad index", function() ui.View {}:insertSubview(ui.View {}, 5) end, "out of range" },
  { "adding a child to itself", function() local c = ui.ViewController {}; c:addChild(c) end, "itself" },
  { "adding a child twice", function()
      local a, b, c = ui.ViewController {}, ui.ViewController {}, ui.ViewController {}
      a:addChild(c); b:addChild(c)
    end, "already a child" },
  { "a root view controller in two windows", function()
      local _, _, root = stage()
      ui.Window {}.rootViewController = root
    end, "already the root" },
  { "a view as root view controller", function() ui.Window {}.rootViewController = ui.View {} end, "must be a ViewController" },
  { "presenting twice", function()
      local _, _, root = stage()
      root:present(ui.ViewController {}); root:present(ui.ViewController {})
    end, "already presenting" },
  { "presenting oneself", function() local vc = ui.ViewController {}; vc:present(vc) end, "present" },
  { "a string as windowScene", function() ui.Window { windowScene = "main" } end, "must be a WindowScene" },
  { "a number as screen", function() ui.WindowScene { screen = 3 } end, "must be a Screen" },
  { "unknown trait in a screen", function() ui.Screen { colour = "red" } end, "unknown trait property 'colour'" },
  { "wrong value in a screen", function() ui.Screen { displayScale = "retina" } end, "DisplayScale" },
  { "constructing a presentation controller", function() ui.PresentationController {} end, "present" },
  { "constructing with a non-table", function() ui.View(5) end, "table expected" },
  { "writing traitCollection", function() ui.View {}.traitCollection = traits.collection {} end, "read%-only" },
  { "writing superview", function() ui.View {}.superview = ui.View {} end, "read%-only" },
  { "a number as name", function() ui.View {}.name = 5 end, "name must be a string" },
  { "replacing a built-in method", function() ui.View {}.addSubview = function() end end, "built%-in method" },
  { "a reserved field name", function() ui.View {}.__gc = 1 end, "reserved" },
  { "subclass on an instance", function() ui.View {}:subclass("X", {}) end, "called on a class" },
  { "subclass without a name", function() ui.View:subclass(nil, {}) end, "string expected" },
  { "subclass with a reserved method", function() ui.View:subclass("Y", { __index = 1 }) end, "reserved" },
  -- What an instance may not set, a class may not define for all of them
  -- (a class field is found before a property, so it would hide it).
  { "subclass defining a property", function() ui.ViewController:subclass("BadC1", { view = 5 }) end, "'view' is a property" },
  { "subclass defining name", function() ui.View:subclass("BadC1b", { name = {} }) end, "'name' is a property" },
  { "subclass replacing a built-in method", function() ui.View:subclass("BadC2", { setNeedsLayout = function() end }) end, "built%-in method 'setNeedsLayout'" },
  { "subclass with a callback that is no function", function() ui.View:subclass("BadC3", { layoutSubviews = 5 }) end, "callback 'layoutSubviews' must be a function" },
  { "a class given a property later", function() local C = ui.View:subclass("BadC4"); C.superview = 1 end, "'superview' is a property" },
  { "a class given a built-in method later", function() local C = ui.View:subclass("BadC5"); C.addSubview = print end, "built%-in method 'addSubview'" },
  { "a class given a callback that is no function", function() local C = ui.ViewController:subclass("BadC6"); C.viewDidLoad = true end, "callback 'viewDidLoad' must be a function" },
  { "a class given a reserved field", function() local C = ui.View:subclass("BadC7"); C.__gc = print end, "reserved" },
  { "an instance given a callback that is no function", function() local v = ui.View {}; v.traitCollectionDidChange = 1 end, "callback 'traitCollectionDidChange' must be a function" },
  { "a constructor given a callback that is no function", function() ui.View { draw = "x" } end, "callback 'draw' must be a function" },
  -- overrides
  { "overrides on a screen", function() return ui.Screen.main.traitOverrides end, "setTraits" },
  { "reading a missing override", function() return ui.View {}.traitOverrides.badTheme end, "no override for trait 'BadThemeTrait'" },
  { "override with a wrong value", function() ui.View {}.traitOverrides.badTheme = "neon" end, "standard, pastel" },
  { "override of an unknown trait", function() ui.View {}.traitOverrides.nope = 1 end, "unknown trait property 'nope'" },
  { "contains with a number", function() ui.View {}.traitOverrides:contains(5) end, "trait definition" },
  -- registrations
  { "registering for no traits", function() ui.View {}:registerForTraitChanges({}, function() end) end, "one or more traits" },
  { "registering for a non-trait", function() ui.View {}:registerForTraitChanges({ 5 }, function() end) end, "entry 1" },
  { "registering with a number handler", function() ui.View {}:registerForTraitChanges({ T }, 5) end, "function or" },
  { "target-action without an action", function() ui.View {}:registerForTraitChanges({ T }, { target = {} }) end, "action" },
  { "target-action with a string target", function() ui.View {}:registerForTraitChanges({ T }, { target = "x", action = "a" }) end, "target must be" },
  { "unregistering a non-token", function() ui.View {}:unregisterForTraitChanges(5) end, "TraitChangeRegistration expected" },
  -- update cycle and callbacks
  { "an error in a registration handler", function()
      local scene, _, v = in_window()
      ui.update()
      v:registerForTraitChanges({ T }, function() error("handler failed") end)
      scene.traitOverrides.badTheme = "pastel"
      ui.update()
    end, "handler failed" },
  -- (An error value that is not a string reaches the caller as it was
  -- raised: update_spec.lua, "keeps non-string error values as they were raised".)
  { "an error in viewDidLoad", function() ui.ViewController { viewDidLoad = function() error("load failed") end }.view:setNeedsLayout() end, "load failed" },
  { "an error in traitCollectionDidChange", function()
      local scene, _, v = in_window()
      ui.update()
      v.traitCollectionDidChange = function() error("did change failed") end
      scene.traitOverrides.badTheme = "pastel"
      ui.update()
    end, "did change failed" },
  { "an error in draw", function()
      in_window { draw = function() error("draw failed") end }
      ui.update()
    end, "draw failed" },
  { "deep recursion inside a handler", function()
      local scene, _, v = in_window()
      ui.update()
      local function recurse(n) return recurse(n + 1) + 1 end
      v:registerForTraitChanges({ T }, function() recurse(1) end)
      scene.traitOverrides.badTheme = "pastel"
      ui.update()
    end, "stack overflow" },
  { "ui.update inside a callback", function()
      in_window { layoutSubviews = function() ui.update() end }
      ui.update()
    end, "inside an update" },
  { "a missing target-action method", function()
      local scene, _, v = in_window()
      ui.update()
      v:registerForTraitChanges({ T }, { target = {}, action = "gone" })
      scene.traitOverrides.badTheme = "pastel"
      ui.update()
    end, "'gone' not found" },
  -- ui and colors
  { "an unknown hierarchy mode", function() ui.hierarchyMode = "ios16" end, "ios17" },
  { "dumping a non-environment", function() ui.dump(5) end, "TraitEnvironment expected" },
  { "an unknown dump format", function() ui.dump(ui.View {}, "svg") end, "unknown dump format" },
  { "trace with a number", function() ui.trace(5) end, "boolean, function or file path" },
  { "a picture of a non-environment", function() ui.picture(5, "x.svg") end, "TraitEnvironment expected" },
  { "a picture without a path", function() ui.picture(ui.View {}) end, "string expected" },
  { "a picture in a PDF", function() ui.picture(ui.View {}, "x.pdf") end, "must end in .svg or .png" },
  { "a misspelt picture option", function() ui.picture(ui.View {}, "x.svg", { ful = true }) end, "unknown option 'ful'" },
  { "a picture's full that is no boolean", function() ui.picture(ui.View {}, "x.svg", { full = 1 }) end, "options.full must be a boolean" },
  { "a dump width of zero", function() ui.dump(ui.View {}, "tree", 0) end, "positive integer" },
  { "a bad hex color", function() ui.Color("#12345") end, "#RRGGBB" },
  { "a color component above 1", function() ui.Color(2, 0, 0) end, "between 0 and 1" },
  { "too few color components", function() ui.Color(1, 0) end, "argument 3" },
  { "a dynamic color without a function", function() ui.Color.dynamic(5) end, "function expected" },
  { "a dynamic color returning a number", function()
      ui.Color.dynamic(function() return 5 end):resolvedColor(traits.collection {})
    end, "must return a ui.Color" },
  { "a non-color background", function() ui.View {}.backgroundColor = "red" end, "must be a ui.Color" },
  { "resolving against a non-collection", function() ui.Color(1, 1, 1):resolvedColor(5) end, "TraitCollection expected" },
  -- plugins
  { "loading a missing plugin", function() plugins.load("no_such_plugin_here") end, "not found" },
  { "reloading a plugin never loaded", function() plugins.reload("never") end, "not loaded" },
  { "adding a plugin path that is not a folder", function() plugins.addPath("/no/such/folder") end, "not a folder" },
  { "loading a non-string", function() plugins.load(5) end, "string expected" },
  -- Every environment's traitCollection is its property (UIKit: a read-only
  -- property of UITraitEnvironment); a class cannot replace it.
  { "a class defining traitCollection", function() local C = ui.View:subclass("TCView1"); C.traitCollection = function() end end, "property of every environment" },
  { "a subclass with a traitCollection method", function() ui.View:subclass("TCView2", { traitCollection = function() end }) end, "property of every environment" },
  { "rawget on a collection object", function() rawget(traits.collection {}, "userInterfaceStyle") end, "table expected" },
}

local function still_consistent()
  local scene, _, root = stage()
  local v = ui.View { name = "probe" }
  root.view:addSubview(v)
  scene.traitOverrides.badTheme = "pastel"
  ui.update()
  assert.are.equal("pastel", v.traitCollection.badTheme)
  assert.are.equal(scene, v.window.windowScene)
end

describe("bad input", function()
  it("has at least 60 cases", function()
    assert.is_true(#cases >= 60, "only " .. #cases .. " cases")
  end)

  it("keeps a message readable when it quotes megabytes of input", function()
    for _, case in ipairs {
      { function() ui.Color(string.rep("#", 10000000)) end, "… %(%d+ more bytes%)$" },
      { function() traits.collection { [string.rep("é", 100000)] = 1 } end, "… %(%d+ more bytes%)$" },
      { function() ui.View {}["__" .. string.rep("x", 100000)] = 1 end, "'__x+%.%.%.' on userdata" },
    } do
      local ok, err = pcall(case[1])
      assert.is_false(ok)
      assert.is_true(#err < 1200, #err .. " bytes")
      assert.matches(case[2], err)
      assert.is_truthy(utf8.len(err), "cut inside a character")
    end
  end)

  for _, case in ipairs(cases) do
    local name, fn, pattern = case[1], case[2], case[3]
    it("is a clear Lua error: " .. name, function()
      local ok, err = pcall(fn)
      assert.is_false(ok, name .. " did not raise")
      assert.is_string(err, name .. " raised a non-string")
      assert.matches(pattern, err)
      -- Drain whatever the failed call left pending, then check the engine.
      pcall(ui.update)
      still_consistent()
    end)
  end
end)
