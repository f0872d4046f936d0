-- An app's asset catalogue, read as Xcode writes it, and the variant a trait
-- collection gets. Each rule cites Apple's Asset Catalog Format Reference
-- (the keys and values of Contents.json) or the pages of
-- UIImageAsset.image(with:) ("Returns the variant of the image that best
-- matches the specified trait collection") and UIColor(named:in:compatibleWith:).
-- The catalogues are written here, into a fresh folder per test.

local function write(path, text)
  local f = assert(io.open(path, "wb"))
  f:write(text)
  f:close()
end

-- catalog { ["A.colorset/Contents.json"] = "...", ... }: a catalogue folder with these files.
local function catalog(files)
  local dir = os.tmpname()
  os.remove(dir)
  dir = dir .. ".xcassets"
  assert(os.execute("mkdir -p '" .. dir .. "'"))
  for rel, text in pairs(files) do
    local folder = (dir .. "/" .. rel):match("^(.*)/[^/]*$")
    assert(os.execute("mkdir -p '" .. folder .. "'"))
    write(dir .. "/" .. rel, text)
  end
  return dir
end

local function colorset(entries)
  return '{ "colors" : [' .. table.concat(entries, ",") .. '], "info" : { "author" : "xcode", "version" : 1 } }'
end
local function srgb(r, g, b, a, extra)
  return ('{ %s "color" : { "color-space" : "srgb", "components" : { "red" : "%s", "green" : "%s", "blue" : "%s", "alpha" : "%s" } }, "idiom" : "universal" }')
    :format(extra or "", r, g, b, a or "1.000")
end
local DARK = '"appearances" : [ { "appearance" : "luminosity", "value" : "dark" } ],'
local HIGH = '"appearances" : [ { "appearance" : "contrast", "value" : "high" } ],'
local DARK_HIGH = '"appearances" : [ { "appearance" : "luminosity", "value" : "dark" }, { "appearance" : "contrast", "value" : "high" } ],'

local function tc(t) return traits.collection(t) end

describe("asset catalogue colours", function()
  -- Named Colors (Format Reference): components as floating point, 8-bit
  -- integers or hexadecimal, in sRGB, Display P3, extended ranges or grey.
  it("read every component form Xcode writes", function()
    local dir = catalog {
      ["Float.colorset/Contents.json"] = colorset { srgb("1.000", "0.500", "0.000") },
      ["Int.colorset/Contents.json"] = colorset { srgb("255", "128", "0") },
      ["Hex.colorset/Contents.json"] = colorset { srgb("0xFF", "0x80", "0x00", "0.500") },
      ["Grey.colorset/Contents.json"] = colorset { '{ "color" : { "color-space" : "gray-gamma-22", "components" : { "white" : "1.000", "alpha" : "1.000" } }, "idiom" : "universal" }' },
      ["Wide.colorset/Contents.json"] = colorset { '{ "color" : { "color-space" : "extended-srgb", "components" : { "red" : "1.200", "green" : "-0.100", "blue" : "0.000", "alpha" : "1.000" } }, "idiom" : "universal" }' },
      ["P3.colorset/Contents.json"] = colorset { '{ "color" : { "color-space" : "display-p3", "components" : { "red" : "1.000", "green" : "1.000", "blue" : "1.000", "alpha" : "1.000" } }, "idiom" : "universal" }' },
    }
    local a = ui.AssetCatalog(dir)
    local any = tc {}
    assert.are.equal("#FF8000", tostring(ui.Color.named("Float", a):resolvedColor(any)))
    assert.are.equal("#FF8000", tostring(ui.Color.named("Int", a):resolvedColor(any)))
    assert.are.equal("#FF800080", tostring(ui.Color.named("Hex", a):resolvedColor(any)))
    assert.are.equal("#FFFFFF", tostring(ui.Color.named("Grey", a):resolvedColor(any)))
    assert.are.equal("#FF0000", tostring(ui.Color.named("Wide", a):resolvedColor(any)))   -- shown clamped to sRGB
    assert.are.equal("#FFFFFF", tostring(ui.Color.named("P3", a):resolvedColor(any)))
    assert.is_nil(ui.Color.named("Missing", a))
  end)

  -- Appearances: luminosity light/dark and contrast high; a variant without
  -- them is "Any", the fallback. UIColor(named:in:compatibleWith:) resolves
  -- by the collection it is given.
  it("choose the most specific compatible appearance, Any as the fallback", function()
    local a = ui.AssetCatalog(catalog {
      ["Card.colorset/Contents.json"] = colorset {
        srgb("1.000", "1.000", "1.000"), srgb("0.000", "0.000", "0.000", nil, DARK),
        srgb("0.900", "0.900", "0.900", nil, HIGH), srgb("0.100", "0.100", "0.100", nil, DARK_HIGH),
      },
    })
    local card = ui.Color.named("Card", a)
    assert.are.equal("#FFFFFF", tostring(card:resolvedColor(tc {})))
    assert.are.equal("#FFFFFF", tostring(card:resolvedColor(tc { userInterfaceStyle = "light" })))
    assert.are.equal("#000000", tostring(card:resolvedColor(tc { userInterfaceStyle = "dark" })))
    assert.are.equal("#E6E6E6", tostring(card:resolvedColor(tc { accessibilityContrast = "high" })))
    assert.are.equal("#1A1A1A", tostring(card:resolvedColor(tc { userInterfaceStyle = "dark", accessibilityContrast = "high" })))
  end)

  -- Idiom: "universal" for every device, "iphone", "ipad", ... for one.
  -- Display gamut: "sRGB" or "display-P3".
  it("choose by idiom and display gamut, a reference to a system colour resolving as that colour", function()
    local a = ui.AssetCatalog(catalog {
      ["Tile.colorset/Contents.json"] = colorset {
        srgb("1.000", "0.000", "0.000"),
        '{ "color" : { "color-space" : "srgb", "components" : { "red" : "0", "green" : "0", "blue" : "255", "alpha" : "1.000" } }, "idiom" : "ipad" }',
        '{ "color" : { "color-space" : "display-p3", "components" : { "red" : "0.000", "green" : "1.000", "blue" : "0.000", "alpha" : "1.000" } }, "display-gamut" : "display-P3", "idiom" : "universal" }',
      },
      ["Accent.colorset/Contents.json"] = colorset { '{ "color" : { "platform" : "ios", "reference" : "systemBackgroundColor" }, "idiom" : "universal" }' },
    })
    local tile = ui.Color.named("Tile", a)
    assert.are.equal("#FF0000", tostring(tile:resolvedColor(tc { userInterfaceIdiom = "phone", displayGamut = "SRGB" })))
    assert.are.equal("#0000FF", tostring(tile:resolvedColor(tc { userInterfaceIdiom = "pad", displayGamut = "P3" })))
    assert.are_not.equal("#FF0000", tostring(tile:resolvedColor(tc { userInterfaceIdiom = "phone", displayGamut = "P3" })))
    local accent = ui.Color.named("Accent", a)
    assert.are.equal("#1C1C1E", tostring(accent:resolvedColor(tc { userInterfaceStyle = "dark", userInterfaceLevel = "elevated" })))
  end)
end)

describe("asset catalogue images", function()
  local function imageset(entries)
    return '{ "images" : [' .. table.concat(entries, ",") .. '], "info" : { "author" : "xcode", "version" : 1 } }'
  end
  local function img(file, scale, extra)
    return ('{ %s "filename" : "%s", "idiom" : "universal"%s }'):format(extra or "", file, scale and (', "scale" : "%s"'):format(scale) or "")
  end
  local function hero()
    return ui.AssetCatalog(catalog {
      ["Art/Contents.json"] = '{ "info" : { "author" : "xcode", "version" : 1 }, "properties" : { "provides-namespace" : true } }',
      ["Art/Hero.imageset/Contents.json"] = imageset {
        img("hero@1x.png", "1x"), img("hero@2x.png", "2x"), img("hero@3x.png", "3x"),
        img("hero-dark@2x.png", "2x", DARK), img("hero-dark@3x.png", "3x", DARK),
        '{ "idiom" : "universal", "scale" : "1x", "appearances" : [ { "appearance" : "luminosity", "value" : "dark" } ] }',
        img("hero-compact@3x.png", "3x", '"width-class" : "compact", "height-class" : "compact",'),
        img("hero-rtl@3x.png", "3x", '"language-direction" : "right-to-left",'),
      },
      ["Art/Hero.imageset/hero@1x.png"] = "", ["Art/Hero.imageset/hero@2x.png"] = "", ["Art/Hero.imageset/hero@3x.png"] = "",
      ["Art/Hero.imageset/hero-dark@2x.png"] = "", ["Art/Hero.imageset/hero-dark@3x.png"] = "",
      ["Art/Hero.imageset/hero-compact@3x.png"] = "", ["Art/Hero.imageset/hero-rtl@3x.png"] = "",
      ["Plain/Logo.imageset/Contents.json"] = imageset { img("logo.pdf") },
      ["Plain/Logo.imageset/logo.pdf"] = "",
    })
  end

  -- "Provides Namespace": a folder's name prefixes the names of the sets in it.
  it("name sets with their folders' namespaces", function()
    local a = hero()
    assert.are.same({ "Art/Hero", "Logo" }, a.images)
    assert.is_not_nil(ui.Image.named("Art/Hero", a))
    assert.is_nil(ui.Image.named("Hero", a))
  end)

  -- Scale: "1x", "2x", "3x"; none for a single-scale image (a PDF).
  it("choose the exact scale, else the nearest larger, an empty slot never", function()
    local h = ui.Image.named("Art/Hero", hero())
    assert.are.equal("hero@3x.png", h:resolved(tc { displayScale = 3 }).file)
    assert.are.equal("hero@1x.png", h:resolved(tc { displayScale = 1 }).file)
    assert.are.equal("hero-dark@2x.png", h:resolved(tc { displayScale = 1, userInterfaceStyle = "dark" }).file)
    local r = h:resolved(tc { displayScale = 3, userInterfaceStyle = "dark" })
    assert.are.same({ file = "hero-dark@3x.png", path = "Art/Hero.imageset/hero-dark@3x.png", scale = 3,
                      traits = { userInterfaceStyle = "dark", displayScale = 3 } }, r)
    assert.are.equal("logo.pdf", ui.Image.named("Logo", hero()):resolved(tc { displayScale = 2 }).file)
  end)

  -- Width and height classes; language direction.
  it("choose by size classes and layout direction", function()
    local h = ui.Image.named("Art/Hero", hero())
    assert.are.equal("hero-compact@3x.png", h:resolved(tc { displayScale = 3, horizontalSizeClass = "compact", verticalSizeClass = "compact" }).file)
    assert.are.equal("hero@3x.png", h:resolved(tc { displayScale = 3, horizontalSizeClass = "compact", verticalSizeClass = "regular" }).file)
    assert.are.equal("hero-rtl@3x.png", h:resolved(tc { displayScale = 3, layoutDirection = "rightToLeft" }).file)
  end)

  -- UITraitCollection.systemTraitsAffectingImageLookup: the traits an image
  -- lookup reads. Image sets read idiom, scale, gamut, style, contrast,
  -- layout direction and both size classes; Apple's list adds
  -- userInterfaceLevel, activeAppearance, preferredContentSizeCategory and
  -- legibilityWeight, which symbol images (not image sets) read.
  it("read only traits that systemTraitsAffectingImageLookup lists", function()
    local set = {}
    for _, d in ipairs(traits.systemTraitsAffectingImageLookup) do set[d.property] = true end
    for _, p in ipairs(ui.Image.named("Art/Hero", hero()).traitsRead) do assert.is_true(set[p], p) end
    for _, p in ipairs { "userInterfaceIdiom", "displayScale", "displayGamut", "userInterfaceStyle", "accessibilityContrast",
                         "layoutDirection", "horizontalSizeClass", "verticalSizeClass" } do
      assert.is_true(set[p], p)
    end
  end)

  it("an image view shows the variant for its traits, changed at the update", function()
    local scene = ui.WindowScene { screen = ui.Screen { userInterfaceIdiom = "phone", displayScale = 3 } }
    local window = ui.Window { windowScene = scene }
    local root = ui.ViewController {}
    window.rootViewController = root
    local iv = ui.ImageView { name = "hero", image = ui.Image.named("Art/Hero", hero()) }
    root.view:addSubview(iv)
    ui.update()
    assert.are.equal("hero@3x.png", iv.resolvedImage.file)
    iv.overrideUserInterfaceStyle = "dark"
    assert.are.equal("hero@3x.png", iv.resolvedImage.file)
    ui.update()
    assert.are.equal("hero-dark@3x.png", iv.resolvedImage.file)
    assert.matches("image Art/Hero → hero%-dark@3x.png %(dark, @3x%)", ui.dump(iv))
    local ok, err = pcall(function() root.view.image = iv.image end)
    assert.is_false(ok)
    assert.matches("ui.ImageView", err)
  end)

  -- UIImageView shows its image's variant for its traits, so a change of a
  -- trait in systemTraitsAffectingImageLookup that the set reads (scale,
  -- size classes, layout direction, ...) redraws it, even when no colour
  -- trait changed; a trait the set does not read does not.
  it("an image view is redrawn when only a trait its image set reads changes", function()
    local scene = ui.WindowScene { screen = ui.Screen { userInterfaceIdiom = "phone", displayScale = 3 } }
    local window = ui.Window { windowScene = scene }
    local root = ui.ViewController {}
    window.rootViewController = root
    local shown = {}
    local iv = ui.ImageView { image = ui.Image.named("Art/Hero", hero()),
                              draw = function(self) shown[#shown + 1] = self.resolvedImage.file end }
    root.view:addSubview(iv)
    ui.update()
    assert.are.same({ "hero@3x.png" }, shown)
    iv.traitOverrides.layoutDirection = "rightToLeft"
    ui.update()
    assert.are.same({ "hero@3x.png", "hero-rtl@3x.png" }, shown)
    iv.traitOverrides.layoutDirection = "leftToRight"
    iv.traitOverrides.horizontalSizeClass = "compact"
    iv.traitOverrides.verticalSizeClass = "compact"
    ui.update()
    assert.are.equal("hero-compact@3x.png", shown[3])
    iv.traitOverrides.legibilityWeight = "bold"   -- in Apple's list, not read by this set
    ui.update()
    assert.are.equal(3, #shown)
  end)
end)

describe("a catalogue Xcode would reject", function()
  local function fails(files, pattern)
    local ok, err = pcall(ui.AssetCatalog, catalog(files))
    assert.is_false(ok)
    assert.matches(pattern, err)
  end
  it("is an error naming the file and what is wrong", function()
    fails({ ["A.colorset/Contents.json"] = "{ \"colors\" : [ " }, "A%.colorset/Contents%.json: invalid JSON")
    fails({ ["A.colorset/Contents.json"] = colorset { srgb("1", "1", "1", nil, '"display-gamut" : "P4",') } }, "A%.colorset/Contents%.json: colors%[1%]: unknown display%-gamut 'P4'")
    fails({ ["A.colorset/Contents.json"] = colorset { (srgb("1", "1", "1"):gsub('"universal"', '"iphoen"')) } }, "unknown idiom 'iphoen'")
    fails({ ["A.colorset/Contents.json"] = colorset { srgb("1.5", "1", "1") } }, "components%.red: 1%.5 is outside 0 to 1")
    fails({ ["I.imageset/Contents.json"] = '{ "images" : [ { "filename" : "gone.png", "idiom" : "universal", "scale" : "2x" } ] }' },
          "I%.imageset/Contents%.json: images%[1%]: the file 'gone.png' is missing")
  end)

  it("refuses a symbolic link out of the catalogue", function()
    local dir = catalog { ["Contents.json"] = "{}" }
    local outside = os.tmpname()
    write(outside, "{}")
    assert(os.execute("mkdir -p '" .. dir .. "/Out.colorset' && ln -s '" .. outside .. "' '" .. dir .. "/Out.colorset/Contents.json'"))
    local ok, err = pcall(ui.AssetCatalog, dir)
    assert.is_false(ok)
    assert.matches("Out%.colorset/Contents%.json: a symbolic link out of the catalogue", err)
    os.remove(outside)
  end)

  it("a folder that is not there is an error naming it", function()
    local ok, err = pcall(ui.AssetCatalog, "/nonexistent/App.xcassets")
    assert.is_false(ok)
    assert.matches("/nonexistent/App%.xcassets: No such file", err)
  end)
end)
