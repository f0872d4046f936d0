-- System traits by OS version: a trait the world's iOS lacks is refused where
-- Swift would not compile against that deployment target. The versions are
-- each property's availability on Apple's UITraitCollection pages (the table
-- in Sources/TraitEngine/SystemTraitAvailability.swift, with each page beside
-- its row). Run as a matrix: `traitlab test --ios 16,17,18,26 Tests/os_versions`.
local major = tonumber(ui.ios:match("^(%d+)"))

local INTRODUCED = {
  imageDynamicRange = 17,        -- uitraitcollection/imagedynamicrange: iOS 17.0+
  typesettingLanguage = 17,      -- uitraitcollection/typesettinglanguage: iOS 17.0+
  sceneCaptureState = 17,        -- uitraitcollection/scenecapturestate: iOS 17.0+
  toolbarItemPresentationSize = 17,
  listEnvironment = 18,          -- uitraitcollection/listenvironment: iOS 18.0+
  hdrHeadroomUsageLimit = 26,    -- iOS 26.0+
  splitViewControllerLayoutEnvironment = 26,
  tabAccessoryEnvironment = 26,
  resolvesNaturalAlignmentWithBaseWritingDirection = 26,
}

describe("system traits on iOS " .. major, function()
  for property, version in pairs(INTRODUCED) do
    if major >= version then
      it(property .. " (iOS " .. version .. ") reads", function()
        local _ = ui.Screen.main.traitCollection[property]
      end)
    else
      it(property .. " (iOS " .. version .. ") is refused when read or passed, naming iOS " .. version, function()
        local ok, err = pcall(function() return ui.Screen.main.traitCollection[property] end)
        assert.is_false(ok)
        assert.matches("available from iOS " .. version, err)
        assert.has_error(function() traits.collection { [property] = nil, displayScale = 2 }:modifyingTraits(function(t)
          return t[property]
        end) end)
      end)
    end
  end

  if major >= 17 then
    it("registering for or overriding a trait this version lacks is refused", function()
      local scene = ui.WindowScene {}
      if major < 18 then
        local ok, err = pcall(scene.registerForTraitChanges, scene, { traits.ListEnvironment }, function() end)
        assert.is_false(ok)
        assert.matches("available from iOS 18", err)
      end
      if major < 26 then
        assert.has_error(function() scene.traitOverrides.tabAccessoryEnvironment = "inline" end)
      else
        scene.traitOverrides.tabAccessoryEnvironment = "inline"
        ui.update()
        assert.has_trait(scene, "tabAccessoryEnvironment", "inline")
      end
    end)
  end

  if major >= 26 then
    it("iOS 26's traits have their defaults", function()
      local tc = traits.collection {}
      assert.equal("unspecified", tc.hdrHeadroomUsageLimit)
      assert.equal("none", tc.splitViewControllerLayoutEnvironment)
      assert.equal("unspecified", tc.tabAccessoryEnvironment)
      assert.is_false(tc.resolvesNaturalAlignmentWithBaseWritingDirection)
    end)
  end

  -- UITraitChangeObservable's conformers: UIWindowScene, UIWindow,
  -- UIPresentationController, UIViewController, UIView; not UIScreen.
  it("a screen takes no registerForTraitChanges", function()
    local ok, err = pcall(ui.Screen.main.registerForTraitChanges, ui.Screen.main, { traits.HorizontalSizeClass }, function() end)
    assert.is_false(ok)
    if major >= 17 then assert.matches("UITraitChangeObservable", err) end
  end)

  it("a screen on this version shows no trait it lacks", function()
    local shown = tostring(ui.Screen.main.traitCollection)
    assert.equal(major >= 17, shown:find("imageDynamicRange", 1, true) ~= nil)
  end)
end)
