-- Trait definitions, values and collections, as a script sees them
-- (docs/guide.md, "Traits and trait collections").

describe("traits.enum", function()
  local Theme = traits.enum("MyAppTheme", { "standard", "pastel", "bold", "monochrome" })

  it("returns cases as plain strings", function()
    assert.are.equal("pastel", Theme.pastel)
    assert.are.same({ "standard", "pastel", "bold", "monochrome" }, Theme.cases)
    assert.are.equal("MyAppTheme", Theme.name)
  end)

  it("refuses an unknown case, naming the valid ones", function()
    assert.has_error(function() return Theme.neon end)
    local ok, err = pcall(function() return Theme.neon end)
    assert.is_false(ok)
    assert.matches("neon", err)
    assert.matches("standard, pastel, bold, monochrome", err)
  end)

  it("refuses bad case lists", function()
    assert.has_error(function() traits.enum("E", {}) end)
    assert.has_error(function() traits.enum("E", { "a", "a" }) end)
    assert.has_error(function() traits.enum("E", { 1 }) end)
    assert.has_error(function() traits.enum(nil, { "a" }) end)
  end)
end)

describe("traits.define", function()
  -- `default = MyAppTheme.standard` makes an enum trait of that enum.
  -- A case is a plain string, and enums share case names: the enum is the one
  -- whose case the default was read from, not whichever was defined last.
  it("takes the enum of a default read from it, when enums share the case", function()
    local Size = traits.enum("DefSize", { "standard", "large" })
    local Mood = traits.enum("DefMood", { "standard", "happy" })
    local S = traits.define { name = "DefSizeTrait", default = Size.standard }
    local M = traits.define { name = "DefMoodTrait", default = Mood.standard }
    assert.are.equal(Size, S.type)
    assert.are.equal(Mood, M.type)
    assert.has_error(function() traits.collection { [S] = "happy" } end)
    assert.are.equal("large", traits.collection { [S] = "large" }[S])
    local K = swiftui.EnvironmentKey { name = "defSizeKey", default = Size.large }
    assert.are.equal(Size, K.type)
  end)

  it("exposes read-only fields", function()
    local Theme = traits.enum("Theme1", { "standard", "pastel" })
    local T = traits.define {
      name = "Theme", default = Theme.standard, identifier = "com.myapp.theme",
      affectsColorAppearance = true,
    }
    assert.are.equal("Theme", T.name)
    assert.are.equal("standard", T.default)
    assert.are.equal("com.myapp.theme", T.identifier)
    assert.is_true(T.affectsColorAppearance)
    assert.are.equal("theme", T.property)
    assert.has_error(function() T.name = "Other" end)
    assert.are.equal("Theme", T.name)
  end)

  it("infers the value type from the default", function()
    local B = traits.define { name = "FlagB", default = false }
    local I = traits.define { name = "CountI", default = 0 }
    local N = traits.define { name = "RatioN", default = 0.5 }
    local S = traits.define { name = "LabelS", default = "x" }
    assert.are.equal("boolean", B.type)
    assert.are.equal("integer", I.type)
    assert.are.equal("number", N.type)
    assert.are.equal("string", S.type)
  end)

  it("makes an enum trait when the default is a case of a defined enum", function()
    local Mode = traits.enum("ModeE", { "off", "auto", "on" })
    local M = traits.define { name = "ModeTrait", default = Mode.auto }
    assert.are.equal(Mode, M.type)
    local tc = traits.collection { [M] = "on" }
    assert.are.equal("on", tc[M])
    local ok, err = pcall(traits.collection, { [M] = "sideways" })
    assert.is_false(ok)
    assert.matches("off, auto, on", err)
  end)

  it("uses the given property name", function()
    local T = traits.define { name = "ContainedInSettings", default = false }
    assert.are.equal("containedInSettings", T.property)
    local U = traits.define { name = "Other", default = 1, property = "otherValue" }
    local tc = traits.collection { otherValue = 5 }
    assert.are.equal(5, tc.otherValue)
    assert.are.equal(5, tc[U])
  end)

  it("refuses a second definition with the same identifier or property", function()
    traits.define { name = "Unique1", default = 1, identifier = "com.example.unique" }
    assert.has_error(function() traits.define { name = "Unique2", default = 1, identifier = "com.example.unique" } end)
    assert.has_error(function() traits.define { name = "Unique1", default = 2 } end)
  end)

  it("refuses missing names, defaults and unknown fields", function()
    assert.has_error(function() traits.define { default = 1 } end)
    assert.has_error(function() traits.define { name = "NoDefault" } end)
    assert.has_error(function() traits.define { name = "Typo", default = 1, identifer = "x" } end)
    assert.has_error(function() traits.define { name = "BadType", type = "colour" } end)
    assert.has_error(function() traits.define { name = "Fn", default = print } end)
  end)

  it("supports optional traits declared with a type and no default", function()
    local Lang = traits.define { name = "Lang", type = "string" }
    assert.is_true(Lang.isOptional)
    assert.is_nil(Lang.default)
    local tc = traits.collection { [Lang] = "fr" }
    assert.are.equal("fr", tc.lang)
    assert.is_nil(traits.collection {}.lang)
  end)
end)

describe("trait values", function()
  local Count = traits.define { name = "ValCount", default = 0 }
  local Scale = traits.define { name = "ValScale", default = 1.0 }
  local Items = traits.define { name = "ValItems", default = {} }

  it("keeps text exactly: multi-byte characters and embedded zeros", function()
    local Label = traits.define { name = "ValLabel", default = "" }
    for _, text in ipairs { "héllo ✓", "a\0b", "𝄞", "" } do
      local tc = traits.collection { [Label] = text, [Items] = { [text] = text } }
      assert.are.equal(text, tc[Label])
      assert.are.equal(#text, #tc[Label])
      assert.are.equal(text, tc[Items][text])
    end
    -- distinct texts stay distinct values
    assert.are_not.equal(traits.collection { [Label] = "é" }, traits.collection { [Label] = "e" })
  end)

  it("accepts a float with an integer value for an integer trait", function()
    local tc = traits.collection { [Count] = 3.0 }
    assert.are.equal(3, tc[Count])
    assert.is_true(math.type(tc[Count]) == "integer")
  end)

  it("refuses a wrong type, naming the trait and the expected type, and changes nothing", function()
    local ok, err = pcall(traits.collection, { [Count] = 2.5 })
    assert.is_false(ok)
    assert.matches("ValCount", err)
    assert.matches("integer", err)
    ok, err = pcall(traits.collection, { [Count] = "3" })
    assert.is_false(ok)
    assert.matches("ValCount", err)
    local view = ui.View {}
    assert.has_error(function() view.traitOverrides[Count] = "x" end)
    assert.is_false(view.traitOverrides:contains(Count))
  end)

  it("stores numbers for number traits", function()
    assert.are.equal(2.0, traits.collection { [Scale] = 2 }[Scale])
  end)

  it("copies tables and compares them by value", function()
    local t = { 1, 2, { x = true } }
    local a = traits.collection { [Items] = t }
    t[1] = 99
    assert.are.same({ 1, 2, { x = true } }, a[Items])
    local read = a[Items]
    read[2] = 42
    assert.are.same({ 1, 2, { x = true } }, a[Items])
    local b = traits.collection { [Items] = { 1, 2, { x = true } } }
    assert.is_true(a == b)
  end)

  it("refuses tables holding functions", function()
    assert.has_error(function() traits.collection { [Items] = { print } } end)
  end)
end)

describe("trait collections", function()
  local Theme = traits.enum("ColTheme", { "standard", "pastel", "bold" })
  local T = traits.define { name = "ColThemeTrait", default = Theme.standard, identifier = "com.test.coltheme" }

  it("builds from a mutation function and from a table", function()
    local tc = traits.collection(function(t)
      t.userInterfaceIdiom = "phone"
      t.horizontalSizeClass = "regular"
    end)
    assert.are.equal("phone", tc.userInterfaceIdiom)
    assert.are.equal("regular", tc.horizontalSizeClass)
    local tc2 = traits.collection { horizontalSizeClass = "compact", [T] = "bold" }
    assert.are.equal("bold", tc2[T])
    assert.are.equal("bold", tc2.colThemeTrait)
  end)

  it("returns defaults for unset traits", function()
    local tc = traits.collection {}
    assert.are.equal("unspecified", tc.userInterfaceStyle)
    assert.are.equal(0, tc.displayScale)
    assert.are.equal("standard", tc[T])
  end)

  it("refuses an unknown property name instead of reading nil", function()
    local tc = traits.collection {}
    local ok, err = pcall(function() return tc.horizontalSizeClas end)
    assert.is_false(ok)
    assert.matches("horizontalSizeClas", err)
    assert.matches("did you mean 'horizontalSizeClass'", err)
  end)

  it("is immutable", function()
    local tc = traits.collection {}
    assert.has_error(function() tc.userInterfaceStyle = "dark" end)
  end)

  it("modifies into a new collection and reports changed traits", function()
    local tc = traits.collection { horizontalSizeClass = "regular", userInterfaceIdiom = "pad" }
    local other = tc:modifyingTraits(function(t) t.horizontalSizeClass = "compact" end)
    assert.are.equal("regular", tc.horizontalSizeClass)
    assert.are.equal("compact", other.horizontalSizeClass)
    assert.are.equal("pad", other.userInterfaceIdiom)
    local changed = tc:changedTraits(other)
    assert.are.equal(1, #changed)
    assert.are.equal(traits.HorizontalSizeClass, changed[1])
  end)

  it("compares by value", function()
    local a = traits.collection { userInterfaceStyle = "dark" }
    local b = traits.collection(function(t) t.userInterfaceStyle = "dark" end)
    assert.is_true(a == b)
    assert.is_false(a == traits.collection {})
    assert.is_true(traits.collection { userInterfaceStyle = "unspecified" } == traits.collection {})
  end)

  it("prints the values that differ from defaults", function()
    local s = tostring(traits.collection { userInterfaceStyle = "dark", [T] = "pastel" })
    assert.matches('userInterfaceStyle = "dark"', s)
    assert.matches('colThemeTrait = "pastel"', s)
    assert.is_nil(s:find("horizontalSizeClass"))
  end)

  it("encodes to JSON by identifier and decodes back", function()
    local Local = traits.define { name = "NoIdentifier", default = 0 }
    local tc = traits.collection { [T] = "bold", userInterfaceStyle = "dark", [Local] = 4 }
    local json = tc:encode()
    assert.matches('"com.test.coltheme"', json)
    assert.is_nil(json:find("NoIdentifier"))
    local back = traits.decode(json)
    assert.are.equal("bold", back[T])
    assert.are.equal("dark", back.userInterfaceStyle)
    assert.are.equal(0, back[Local])
  end)

  -- encode gives what decode reads back. JSON (RFC 8259 §6, §4) has
  -- no NaN or infinity, and object keys are strings: such values are an
  -- error naming the trait rather than a document that decodes to another collection.
  it("reads back everything it encodes, and refuses what JSON cannot hold", function()
    local N = traits.define { name = "EncN", default = 0.0, identifier = "com.test.encn" }
    local Tb = traits.define { name = "EncT", default = {}, identifier = "com.test.enct" }
    local Local = traits.define { name = "EncLocal", default = 0.0 }
    local good = traits.collection { [N] = 2.5, [Tb] = { "a", { k = 1.5, nested = { 1, 2 } }, true }, [Local] = 7 }
    assert.are.equal(good:modifyingTraits(function(t) t[Local] = 0 end), traits.decode(good:encode()))
    -- A number trait holds no NaN or infinity at all (docs/guide.md, "Traits
    -- and trait collections"); inside a table value they reach encode.
    assert.has_error(function() traits.collection { [N] = 0 / 0 } end, "trait 'EncN' expects a finite number, got nan")
    assert.has_error(function() traits.collection { [N] = -math.huge } end, "trait 'EncN' expects a finite number, got -inf")
    for _, case in ipairs {
      { { [Tb] = { x = 0 / 0 } }, "trait 'EncT' cannot be encoded: NaN" },
      { { [Tb] = { x = -math.huge } }, "%-infinity has no JSON form" },
      { { [Tb] = { [1] = "x", [3] = "y" } }, "trait 'EncT' cannot be encoded: a table key that is a number %(1%)" },
      { { [Tb] = { inner = { [true] = 1 } } }, "a table key that is a boolean" },
      { { [Tb] = { list = { 1, 0 / 0 } } }, "NaN" },
    } do
      local ok, err = pcall(function() return traits.collection(case[1]):encode() end)
      assert.is_false(ok)
      assert.matches(case[2], err)
    end
  end)

  it("refuses JSON with an unknown identifier, naming it", function()
    local ok, err = pcall(traits.decode, '{"com.nobody.knows": 1}')
    assert.is_false(ok)
    assert.matches("com.nobody.knows", err)
    assert.has_error(function() traits.decode("{") end)
    assert.has_error(function() traits.decode("[]") end)
  end)

  it("is always the same table for the same collection of an environment", function()
    local v = ui.View {}
    assert.are.equal(v.traitCollection, v.traitCollection)
  end)
end)

describe("system traits", function()
  it("have UIKit's names, properties, cases and defaults", function()
    assert.are.equal("HorizontalSizeClass", traits.HorizontalSizeClass.name)
    assert.are.equal("horizontalSizeClass", traits.HorizontalSizeClass.property)
    assert.are.same({ "unspecified", "compact", "regular" }, traits.HorizontalSizeClass.cases)
    assert.are.same({ "unspecified", "phone", "pad", "tv", "carPlay", "mac", "vision" }, traits.UserInterfaceIdiom.cases)
    assert.are.equal("unknown", traits.ForceTouchCapability.default)
    assert.are.equal(0, traits.DisplayScale.default)
    assert.are.equal("number", traits.DisplayScale.type)
    assert.is_true(traits.TypesettingLanguage.isOptional)
    for _, name in ipairs { "UserInterfaceStyle", "VerticalSizeClass", "LayoutDirection", "PreferredContentSizeCategory",
      "LegibilityWeight", "AccessibilityContrast", "UserInterfaceLevel", "DisplayGamut", "ActiveAppearance",
      "ImageDynamicRange", "ToolbarItemPresentationSize", "SceneCaptureState", "ListEnvironment" } do
      assert.are.equal(name, traits[name].name)
    end
  end)

  it("group into the semantic sets", function()
    local color = traits.systemTraitsAffectingColorAppearance
    assert.are.equal(6, #color)
    local image = traits.systemTraitsAffectingImageLookup
    assert.are.equal(12, #image)
    local names = {}
    for _, d in ipairs(color) do names[d.property] = true end
    for _, p in ipairs { "userInterfaceIdiom", "userInterfaceStyle", "displayGamut", "accessibilityContrast",
      "userInterfaceLevel", "activeAppearance" } do
      assert.is_true(names[p], p)
    end
  end)
end)

describe("require('traitlab')", function()
  it("returns the same objects as the globals", function()
    local t = require("traitlab")
    assert.are.equal(traits, t.traits)
    assert.are.equal(ui, t.ui)
    assert.are.equal(swiftui, t.swiftui)
    assert.are.equal(plugins, t.plugins)
  end)
end)
