-- busted's environments: insulate keeps the globals and the modules a block
-- sets to itself; expose hands them to the blocks after it, past the block
-- around it. (Files are insulated from each other unless --no-auto-insulate:
-- options/leak_*_spec.lua.)
-- luacheck: globals insulated_global exposed_global

insulate("an insulated block", function()
  insulated_global = "inside"
  local tally = require "tally"
  tally.new()

  it("sees its own global and the module it required", function()
    assert.equal("inside", insulated_global)
    assert.equal(1, tally.made())
    assert.is_table(package.loaded.tally)
  end)
end)

describe("after an insulated block", function()
  it("does not see the block's global", function()
    assert.is_nil(insulated_global)
  end)

  it("does not see the module the block required", function()
    assert.is_nil(package.loaded.tally)
    assert.equal(0, require("tally").made())
  end)
end)

insulate("an insulated block around an exposed one", function()
  expose("an exposed block", function()
    exposed_global = "shared"
    it("sets a global", function()
      assert.equal("shared", exposed_global)
    end)
  end)

  describe("after the exposed block", function()
    it("sees the global the exposed block set", function()
      assert.equal("shared", exposed_global)
    end)
  end)
end)

describe("after the insulated block around it", function()
  it("still sees it: expose hands the global to the block around that one", function()
    assert.equal("shared", exposed_global)
  end)
end)
