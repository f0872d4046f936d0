-- Passes under --helper=helpers/announce.lua -Xhelper first,second.
-- luacheck: globals helper_arguments
describe("--helper", function()
  it("ran the helper with -Xhelper's options", function()
    assert.same({ "first", "second" }, helper_arguments)
  end)
end)
