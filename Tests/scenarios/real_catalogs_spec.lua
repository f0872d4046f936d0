-- Real apps' asset catalogues load as they are. Point TRAITLAB_ASSET_CATALOGS
-- at a folder holding .xcassets folders (at any depth); without it these
-- tests are skipped, as the LUA_TESTES tests are without their suite.

local root = os.getenv("TRAITLAB_ASSET_CATALOGS")

describe("real apps' catalogues", function()
  if not root or root == "" then
    pending("TRAITLAB_ASSET_CATALOGS is not set")
    return
  end
  local list = io.popen("find '" .. root:gsub("'", "'\\''") .. "' -type d -name '*.xcassets' -prune | sort")
  local paths = {}
  for p in list:lines() do paths[#paths + 1] = p end
  list:close()

  it("finds catalogues under TRAITLAB_ASSET_CATALOGS", function()
    assert.is_true(#paths > 0, "no .xcassets folder under " .. root)
  end)

  local styles = {
    traits.collection { userInterfaceIdiom = "phone", displayScale = 3, userInterfaceStyle = "light" },
    traits.collection { userInterfaceIdiom = "phone", displayScale = 3, userInterfaceStyle = "dark", accessibilityContrast = "high" },
    traits.collection { userInterfaceIdiom = "pad", displayScale = 2, userInterfaceStyle = "dark", userInterfaceLevel = "elevated" },
  }
  for _, path in ipairs(paths) do
    it("loads and resolves " .. path, function()
      local catalog = ui.AssetCatalog(path)
      for _, name in ipairs(catalog.colors) do
        for _, tc in ipairs(styles) do assert.matches("^#%x+$", tostring(ui.Color.named(name, catalog):resolvedColor(tc))) end
      end
      for _, name in ipairs(catalog.images) do
        for _, tc in ipairs(styles) do
          local v = ui.Image.named(name, catalog):resolved(tc)
          if v then assert.is_string(v.file) end
        end
      end
    end)
  end
end)
