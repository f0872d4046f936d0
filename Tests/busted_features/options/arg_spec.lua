-- busted's `arg`: its command line from arg[1] on, arg[0] the script busted
-- runs as, and below it the command that runs Lua. Libraries that start "the
-- interpreter" (Penlight's app.lua()) build that command from arg[-1],
-- arg[-2], ...
describe("arg", function()
  it("holds busted's command line from arg[1] on", function()
    assert.equal("options/arg_spec.lua", arg[1])
    assert.is_string(arg[0])
  end)

  it("names, below arg[0], a command that runs Lua", function()
    local first = 0
    while arg[first - 1] ~= nil do first = first - 1 end
    assert.is_true(first < 0, "nothing below arg[0]")
    local words = {}
    for i = first, -1 do words[#words + 1] = string.format("%q", arg[i]) end
    local _, how, code = os.execute(table.concat(words, " ") .. [[ -e "os.exit(3)"]])
    assert.same({ "exit", 3 }, { how, code })
  end)
end)
