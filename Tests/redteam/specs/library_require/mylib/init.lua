local M = {}
function M.double(x) return 2 * x end
M.has_io = io ~= nil
M.sub = require 'mylib.sub'
return M
